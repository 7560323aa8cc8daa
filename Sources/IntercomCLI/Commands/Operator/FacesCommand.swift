import Foundation
import IntercomBase
import IntercomOperator

/// `intercom faces [OPERATOR] [--flat ID] [--json]`: the faces the operator's recognition knows for
/// the flat (`frs/listFaces`); `--like ENTRY` registers the face of a log entry (`frs/like`, ENTRY its
/// uuid as `intercom log --json` prints it), `--remove FACE` takes a face off (`frs/disLike`).
public enum FacesCommand {
    public static let spec = CommandSpec(
        name: "faces",
        arguments: "[OPERATOR]",
        maxPositionals: 1,
        options: [
            .value("--like", "ENTRY", "have the operator's face server register the face in this log entry's picture (its uuid, from 'intercom log --json')"),
            .value("--remove", "FACE", "take this face (its id) off the flat"),
            .value("--flat", "ID", "the flat (its id, or its number) when the login has several"),
            .flag("--json", "one JSON array (operator, flat, face, image)"),
            .flag(PictureURL.showOption, "the faces' picture URLs whole (they open the picture without a login: shown as https://HOST/… otherwise)"),
        ],
        details: """
            Faces are the operator's face recognition (FRS): a door can open for a known face
            (log entries 'opened by face', who 'face 17'). --like hands an entry of one of your flats
            to the operator, which refuses only an entry without a picture; the picture goes to its
            face server, which registers the face it finds there for this login or answers that it
            found none (HTTP 406, with its own words). --remove takes a face off the flat (for every
            member when this login owns the flat, else for this login only: the server decides).
            A server without recognition answers 422. Licence plates: 'intercom plates'.
            """,
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let args = invocation.arguments
        guard args.value("--like") == nil || args.value("--remove") == nil else { return usage("--like and --remove exclude each other") }
        let op: OperatorConfig
        switch OperatorSelection.pick(invocation, name: args.positionals.first) {
        case .failure(let failure): return failure.report()
        case .success(let found): op = found
        }
        do {
            let client = try OperatorSelection.client(op, environment: invocation.environment)
            if let entry = args.value("--like") {
                return try await like(client, entry: entry, op: op)
            }
            let flat: OperatorFlat
            switch OperatorSelection.flat(try await client.flats(), choice: args.value("--flat"), operatorName: op.name, command: "faces") {
            case .failure(let failure): return failure.report()
            case .success(let found): flat = found
            }
            if let face = args.value("--remove") {
                guard Int(face).map({ $0 > 0 }) == true else { return usage("--remove takes a face's id (a number), not '\(face)'") }
                try await client.dislikeFace(flatId: flat.flatId, faceId: face)
                guard try await !client.faces(flatId: flat.flatId).contains(where: { $0.id == face }) else {
                    return CommandError("\(op.name): the operator accepted the removal, but face \(face) is still listed for flat "
                                        + "\(flat.flatId) (a face another member registered stays: the flat's owner can remove it)",
                                        code: ExitCode.unavailable).report()
                }
                Console.out(TerminalSafe.escape("\(op.name), flat \(flat.flatId): face \(face) removed"))
                return ExitCode.ok
            }
            let faces = try await client.faces(flatId: flat.flatId)
            let image = { (face: OperatorFace) in face.image.map { args.has(PictureURL.showOption) ? $0 : PictureURL.masked($0) } }
            if args.has("--json") {
                Console.out(JSONValue.array(faces.map { face in
                    .object([("operator", .string(op.name)), ("flat", .string(flat.flatId)), ("face", .string(face.id)),
                             ("image", .optional(image(face)))])
                }).encoded)
            } else if faces.isEmpty {
                Console.out(TerminalSafe.escape("\(op.name), flat \(flat.flatId): no faces"))
            } else {
                Console.out(TerminalSafe.escape("\(op.name), flat \(flat.flatId) (\(flat.address)):"))
                Console.out(TextTable.render(faces.map { ["  face \($0.id)", image($0) ?? "-"].map(TerminalSafe.escape) }))
            }
            return ExitCode.ok
        } catch {
            return error.commandError.report()
        }
    }

    /// `frs/like`, each outcome said as what the server did: the operator checks the entry, its face
    /// server looks for the face.
    static func like(_ client: OperatorClient, entry: String, op: OperatorConfig) async throws(OperatorError) -> Int32 {
        let registered: Bool
        do {
            registered = try await client.likeFace(event: entry)
        } catch {
            let said = error.serverText == nil ? "" : " (HTTP \(error.httpStatus ?? 0)\(error.serverSaid))"
            switch error.kind {
            case .rejected(status: 406):
                return CommandError("\(op.name): the operator's face server found no face to register in the picture of entry \(entry)\(said); "
                                    + "pick an entry whose picture shows a face ('intercom log')", code: ExitCode.dataError).report()
            case .forbidden:
                return CommandError("\(op.name): the operator refused entry \(entry): it has no picture, or is not of your flats\(said); "
                                    + "pick an entry with a picture ('intercom log')", code: ExitCode.authRefused).report()
            case .notFound:
                return CommandError("\(op.name): the operator has no log entry \(entry)\(said); take a uuid from 'intercom log --json'",
                                    code: ExitCode.authRefused).report()
            default:
                throw error
            }
        }
        guard registered else {
            return CommandError("\(op.name): the operator registered no face from entry \(entry): the entry's entrance has no camera "
                                + "for its face server", code: ExitCode.unavailable).report()
        }
        Console.out(TerminalSafe.escape("\(op.name): the operator's face server registered the face in entry \(entry)"))
        return ExitCode.ok
    }

    static func usage(_ message: String) -> Int32 {
        CommandError(UsageError(message: message, command: "faces").description, code: ExitCode.usage).report()
    }
}
