import Foundation
import IntercomBase
import IntercomOperator

/// `intercom share [OPERATOR] PHONE [--until TIME] [--remove] [--flat ID]`: gives another phone
/// access to the flat through the operator (`address/access`), or takes it back;
/// `intercom share [OPERATOR] --list [--json]` lists who else has it.
public enum ShareCommand {
    public static let spec = CommandSpec(
        name: "share",
        arguments: "[OPERATOR] PHONE | [OPERATOR] --list",
        maxPositionals: 2,
        options: [
            .value("--until", "TIME", "when access should end: 'YYYY-MM-DD HH:MM', RFC 3339, 30m, 2h, 1d from now, 20:00 or tomorrow 08:00 "
                   + "(the operator keeps no end time: this intercom's daemon ends it)"),
            .flag("--remove", "take the access back"),
            .flag("--list", "list the flat's other subscribers: phone, role (owner, inner, outer: gates only), end"),
            .flag("--json", "with --list: one JSON array (`expire`: the server's end, `until`: the end this intercom keeps)"),
            .value("--flat", "ID", "the flat (its id, or its number) when the login has several"),
        ],
        details: """
            The operator's server keeps shared access without an end: it ignores an end time when
            adding and lists everyone until 3001. With --until the access is added and the end is
            handed to this user's daemon ('intercom daemon'), which keeps it in the state folder
            (share-expiries.json, 0600; it survives a restart) and takes the access back when it is
            due, as --remove does (event share_expired, journaled); without a daemon the command
            says that no one will end it. --remove, and sharing again without --until, make the
            daemon forget a kept end. --remove sends a time two days back (the server
            removes only for a time already past in its own zone) and reads the flat's list back
            to check the phone is gone. --list shows the other subscribers of every flat of the
            login (or of --flat) as the server lists them, the caller left out; an end the server
            writes as 3001 shows as "no end", an end the daemon keeps as "until ... (kept by this
            intercom)". Only the flat's owner can take a guest back (the server's rule): a resident's
            --until, or --remove of another phone, is refused before asking the server, and a
            resident's plain share says that only the owner can undo it. A phone the flat's list
            already holds is said to be listed and nothing is sent (the server would push the guest
            a "new address" message before failing).
            """,
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let args = invocation.arguments
        let positionals = args.positionals
        if args.has("--list") { return await list(invocation) }
        guard !args.has("--json") else { return usage("--json goes with --list") }
        guard let phoneText = positionals.last else {
            return usage("name the phone to share the flat with, e.g. 'intercom share 79123456782'")
        }
        guard let phone = OperatorConfig.normalizedPhone(phoneText) else {
            return usage("'\(phoneText)' is not a phone number (11 digits, e.g. 79123456782)")
        }
        let remove = args.has("--remove")
        var untilDate: Date?
        if remove {
            guard args.value("--until") == nil else { return usage("--until and --remove exclude each other") }
        } else if let until = args.value("--until") {
            guard let date = FlatSettingChange.untilTime(until) else {
                return usage("--until takes \(UntilTimeParser.forms); not '\(until)'")
            }
            guard date > Date() else { return usage("--until '\(until)' is in the past; use --remove to take access back") }
            untilDate = date
        }
        let config: IntercomConfig
        switch OperatorSelection.config(invocation) {
        case .failure(let failure): return failure.report()
        case .success(let loaded): config = loaded
        }
        let op: OperatorConfig
        switch OperatorSelection.pick(config, name: positionals.count == 2 ? positionals.first : nil) {
        case .failure(let failure): return failure.report()
        case .success(let found): op = found
        }
        let socket = config.daemon.socketPath
        do {
            let client = try OperatorSelection.client(op, environment: invocation.environment)
            let flat: OperatorFlat
            switch OperatorSelection.flat(try await client.flats(), choice: args.value("--flat"),
                                          operatorName: op.name, command: "share") {
            case .failure(let failure): return failure.report()
            case .success(let found): flat = found
            }
            var note: String?
            var listed: String?
            switch Self.ownerCheck(flat: flat, phone: phone, until: untilDate != nil, remove: remove, ownPhone: op.phone) {
            case .ownerOnly(let line): return CommandError(TerminalSafe.escape("\(op.name): \(line)"), code: ExitCode.authRefused).report()
            case .listed(let line): listed = line
            case .ask(let said): note = said
            }
            let what: String
            var code = ExitCode.ok
            if let untilDate {
                if listed == nil { try await client.addAccess(flatId: flat.flatId, guestPhone: phone) }
                (what, code) = Self.untilOutcome(ShareExpiry(operatorName: op.name, flatId: flat.flatId, phone: phone,
                                                             until: untilDate, address: flat.address), phone: phone, socket: socket)
            } else if remove {
                try await client.removeAccess(flatId: flat.flatId, guestPhone: phone)
                // The server answers 204 also when it did nothing (a phone it does not know): ask.
                if try await client.flats().first(where: { $0.flatId == flat.flatId })?.roommates.contains(where: { $0.isPhone(phone) }) == true {
                    return CommandError("\(op.name): the operator accepted the removal, but +\(phone) is still listed for flat \(flat.flatId); "
                        + "try again, or ask the operator", code: ExitCode.unavailable).report()
                }
                what = "access of +\(phone) removed"
                // An end the daemon kept for this guest has nothing left to end.
                _ = Self.tellDaemon(.forget(operatorName: op.name, flatId: flat.flatId, phone: phone), socket: socket)
            } else {
                if listed == nil { try await client.addAccess(flatId: flat.flatId, guestPhone: phone) }
                // Given without an end: an end kept from an earlier --until no longer holds.
                _ = Self.tellDaemon(.forget(operatorName: op.name, flatId: flat.flatId, phone: phone), socket: socket)
                what = listed ?? "+\(phone) has access"
            }
            let line = TerminalSafe.escape("\(op.name), flat \(flat.flatId) (\(flat.address)): \(what)")
            if code == ExitCode.ok { Console.out(line) } else { return CommandError(line, code: code).report() }
            if let note { Console.error(TerminalSafe.escape("\(op.name): \(note)")) }
            return ExitCode.ok
        } catch {
            return error.commandError.report()
        }
    }

    static func usage(_ message: String) -> Int32 {
        CommandError(UsageError(message: message, command: "share").description, code: ExitCode.usage).report()
    }
}
