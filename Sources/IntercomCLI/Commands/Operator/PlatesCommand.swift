import Foundation
import IntercomBase
import IntercomOperator

/// `intercom plates [OPERATOR] [--flat ID] [--add PLATE | --remove PLATE] [--json]`: the flat's
/// licence plates the operator's plate recognition opens the gate for (`lprs/listNumbers`,
/// `lprs/addNumber`, `lprs/removeNumber`).
public enum PlatesCommand {
    public static let spec = CommandSpec(
        name: "plates",
        arguments: "[OPERATOR]",
        maxPositionals: 1,
        options: [
            .value("--add", "PLATE", "add this licence plate to the flat (e.g. A123BC77)"),
            .value("--remove", "PLATE", "take this licence plate off the flat"),
            .value("--flat", "ID", "the flat (its id, or its number) when the login has several"),
            .flag("--json", "one JSON array (operator, flat, plate)"),
        ],
        details: """
            Plates are the operator's plate recognition (LPRS): a gate or barrier whose camera reads
            plates opens for the flat's plates (log entries 'opened by plate', who 'plate A123BC77').
            Any member of the flat may list, add and remove them; the list is the flat's, not this
            login's. A plate is sent as the server stores it: without spaces, in capitals, its
            Cyrillic letters as the Latin ones they look like (a plate typed in Cyrillic is the same
            plate as in Latin); the server accepts Russian plates only (a letter, three digits, two
            letters, a region of two or three digits, e.g. A123BC77) and answers anything else
            'Invalid license plate number' (exit 65). Each change is read back. Whether the flat's
            gates read plates at all, 'intercom settings' shows (lprs).
            """,
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let args = invocation.arguments
        guard args.value("--add") == nil || args.value("--remove") == nil else { return usage("--add and --remove exclude each other") }
        var change: (add: Bool, plate: String)?
        for (option, add) in [("--add", true), ("--remove", false)] {
            guard let text = args.value(option) else { continue }
            guard let plate = OperatorClient.normalizedPlate(text) else {
                return usage("\(option) takes a licence plate (letters and digits, e.g. A123BC77), not '\(text)'")
            }
            change = (add, plate)
        }
        guard change == nil || !args.has("--json") else { return usage("--json goes with the list, not with --add or --remove") }
        let op: OperatorConfig
        switch OperatorSelection.pick(invocation, name: args.positionals.first) {
        case .failure(let failure): return failure.report()
        case .success(let found): op = found
        }
        do {
            let client = try OperatorSelection.client(op, environment: invocation.environment)
            let flat: OperatorFlat
            switch OperatorSelection.flat(try await client.flats(), choice: args.value("--flat"), operatorName: op.name, command: "plates") {
            case .failure(let failure): return failure.report()
            case .success(let found): flat = found
            }
            if let change {
                return try await apply(change, client: client, op: op, flat: flat)
            }
            let plates = try await client.plates(flatId: flat.flatId)
            if args.has("--json") {
                Console.out(JSONValue.array(plates.map { plate in
                    .object([("operator", .string(op.name)), ("flat", .string(flat.flatId)), ("plate", .string(plate))])
                }).encoded)
            } else if plates.isEmpty {
                Console.out(TerminalSafe.escape("\(op.name), flat \(flat.flatId): no plates"))
            } else {
                Console.out(TerminalSafe.escape("\(op.name), flat \(flat.flatId) (\(flat.address)):"))
                for plate in plates { Console.out(TerminalSafe.escape("  plate \(plate)")) }
            }
            return ExitCode.ok
        } catch {
            return error.commandError.report()
        }
    }

    /// Adds or removes, then reads the list back: the server answers 204 whether or not it changed
    /// anything (a plate it did not have, an operator's override of the method).
    private static func apply(_ change: (add: Bool, plate: String), client: OperatorClient, op: OperatorConfig,
                              flat: OperatorFlat) async throws(OperatorError) -> Int32 {
        let plate = change.plate
        if change.add {
            try await client.addPlate(flatId: flat.flatId, number: plate)
        } else {
            guard try await client.plates(flatId: flat.flatId).contains(plate) else {
                Console.out(TerminalSafe.escape("\(op.name), flat \(flat.flatId): plate \(plate) is not listed; nothing to remove"))
                return ExitCode.ok
            }
            try await client.removePlate(flatId: flat.flatId, number: plate)
        }
        let listed = try await client.plates(flatId: flat.flatId).contains(plate)
        guard listed == change.add else {
            let text = change.add
                ? "the operator accepted plate \(plate), but it is not listed for flat \(flat.flatId)"
                : "the operator accepted the removal, but plate \(plate) is still listed for flat \(flat.flatId)"
            return CommandError(TerminalSafe.escape("\(op.name): \(text); try again, or ask the operator"), code: ExitCode.unavailable).report()
        }
        Console.out(TerminalSafe.escape("\(op.name), flat \(flat.flatId): plate \(plate) \(change.add ? "added" : "removed")"))
        return ExitCode.ok
    }

    static func usage(_ message: String) -> Int32 {
        CommandError(UsageError(message: message, command: "plates").description, code: ExitCode.usage).report()
    }
}
