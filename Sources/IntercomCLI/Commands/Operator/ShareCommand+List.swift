import Foundation
import IntercomBase
import IntercomOperator

/// `intercom share [OPERATOR] --list [--json] [--flat ID]`: the flat's other subscribers as
/// `address/getSettingsList` names them (`roommates`: the caller is never among them).
extension ShareCommand {
    static func list(_ invocation: Invocation) async -> Int32 {
        let args = invocation.arguments
        guard args.positionals.count <= 1, OperatorConfig.normalizedPhone(args.positionals.first ?? "") == nil else {
            return usage("--list takes at most the operator's name, not a phone")
        }
        guard !args.has("--remove"), args.value("--until") == nil else {
            return usage("--list lists; it goes without --remove and --until")
        }
        let op: OperatorConfig
        switch OperatorSelection.pick(invocation, name: args.positionals.first) {
        case .failure(let failure): return failure.report()
        case .success(let found): op = found
        }
        do {
            let client = try OperatorSelection.client(op, environment: invocation.environment)
            var flats = try await client.flats()
            if let choice = args.value("--flat") {
                switch OperatorSelection.flat(flats, choice: choice, operatorName: op.name, command: "share") {
                case .failure(let failure): return failure.report()
                case .success(let found): flats = [found]
                }
            }
            guard !flats.isEmpty else {
                return CommandError("\(op.name): this login has no flat, so no one shares it", code: ExitCode.unavailable).report()
            }
            let zone = await client.timeZone()
            // The ends this user's daemon keeps (the server keeps none): read from its file, daemon or not.
            let loaded = ShareExpiryStore(environment: invocation.environment).load()
            if let problem = loaded.problem { Console.error(TerminalSafe.escape("share: \(problem)")) }
            func kept(_ flat: OperatorFlat, _ mate: OperatorRoommate) -> Date? {
                loaded.expiries.first {
                    $0.operatorName.lowercased() == op.name.lowercased() && $0.flatId == flat.flatId && mate.isPhone($0.phone)
                }?.until
            }
            if args.has("--json") {
                let rows: [JSONValue] = flats.flatMap { flat in
                    flat.roommates.map { mate in
                        JSONValue.object([("operator", .string(op.name)), ("flat", .string(flat.flatId)),
                                          ("address", .string(flat.address)), ("phone", .string(mate.phone)),
                                          ("role", .optional(mate.type)),
                                          ("expire", mate.expiry(timeZone: zone).map { .string(RFC3339.string($0)) } ?? .null),
                                          ("until", kept(flat, mate).map { .string(RFC3339.string($0)) } ?? .null)])
                    }
                }
                Console.out(JSONValue.array(rows).encoded)
                return ExitCode.ok
            }
            for flat in flats {
                Console.out(TerminalSafe.escape("\(op.name), flat \(flat.flatId) (\(flat.address)):"))
                guard !flat.roommates.isEmpty else {
                    Console.out("  no one else")
                    continue
                }
                let rows = flat.roommates.map { mate -> [String] in
                    let end = kept(flat, mate).map { "until \(Self.shown($0)) (kept by this intercom)" }
                        ?? mate.expiry(timeZone: zone).map { "until " + Self.shown($0) } ?? "no end"
                    return ["  +" + mate.phone, mate.type ?? "-", end].map(TerminalSafe.escape)
                }
                Console.out(TextTable.render(rows))
            }
            return ExitCode.ok
        } catch {
            return error.commandError.report()
        }
    }

    /// A local time to the minute, as the other operator commands show one.
    static func shown(_ date: Date) -> String {
        let local = LocalTime(date)
        return "\(local.date) \(local.clock.prefix(5))"
    }
}
