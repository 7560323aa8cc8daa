import Foundation
import IntercomBase
import IntercomOperator

/// `intercom share [OPERATOR] PHONE [--until TIME] [--remove] [--flat ID]`: gives another phone
/// access to the flat through the operator (`address/access`), or takes it back.
public enum ShareCommand {
    public static let spec = CommandSpec(
        name: "share",
        arguments: "[OPERATOR] PHONE",
        maxPositionals: 2,
        options: [
            .value("--until", "TIME", "access ends then: 'YYYY-MM-DD HH:MM', RFC 3339, or 30m, 2h, 1d from now"),
            .flag("--remove", "take the access back"),
            .value("--flat", "ID", "the flat (its id, or its number) when the login has several"),
        ],
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let args = invocation.arguments
        let positionals = args.positionals
        guard let phoneText = positionals.last else {
            return usage("name the phone to share the flat with, e.g. 'intercom share 79123456782'")
        }
        guard let phone = OperatorConfig.normalizedPhone(phoneText) else {
            return usage("'\(phoneText)' is not a phone number (11 digits, e.g. 79123456782)")
        }
        var expire: String?
        var untilDate: Date?
        if args.has("--remove") {
            guard args.value("--until") == nil else { return usage("--until and --remove exclude each other") }
            // A past time removes the access (the API has no delete).
            expire = OperatorTime.past
        } else if let until = args.value("--until") {
            guard let date = FlatSettingChange.untilTime(until) else {
                return usage("--until takes 'YYYY-MM-DD HH:MM', RFC 3339, or 30m, 2h, 1d; not '\(until)'")
            }
            guard date > Date() else { return usage("--until '\(until)' is in the past; use --remove to take access back") }
            untilDate = date
        }
        let op: OperatorConfig
        switch OperatorSelection.config(invocation).flatMap({
            OperatorSelection.pick($0, name: positionals.count == 2 ? positionals.first : nil)
        }) {
        case .failure(let failure): return failure.report()
        case .success(let found): op = found
        }
        do {
            let client = try OperatorSelection.client(op, environment: invocation.environment)
            let flat: OperatorFlat
            switch OperatorSelection.flat(try await client.flats(), choice: args.value("--flat"),
                                          operatorName: op.name, command: "share") {
            case .failure(let failure): return failure.report()
            case .success(let found): flat = found
            }
            if let untilDate { expire = OperatorTime.format(untilDate, timeZone: await client.timeZone()) }
            try await client.access(flatId: flat.flatId, guestPhone: phone, expire: expire)
            let what = args.has("--remove") ? "access of +\(phone) removed"
                : "+\(phone) has access\(untilDate.map { " until \(OperatorTime.format($0))" } ?? "")"
            Console.out(TerminalSafe.escape("\(op.name), flat \(flat.flatId) (\(flat.address)): \(what)"))
            return ExitCode.ok
        } catch {
            return error.commandError.report()
        }
    }

    static func usage(_ message: String) -> Int32 {
        CommandError(UsageError(message: message, command: "share").description, code: ExitCode.usage).report()
    }
}
