import Foundation
import IntercomBase

/// Every command of `CommandIndex` described, in its order: the running binary's own table, and
/// the rest asked of the sibling binary that runs them (`PROGRAM __describe`). The reference,
/// the man page and the completions are made from it, so a command added to any table is in all.
public enum CommandCatalog {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The hidden command each binary answers with its own table as JSON.
    public static let describeCommand = "__describe"

    public static func describe(_ commands: [CommandSpec]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(commands.map(CommandDescription.init))) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    public static func gather(own commands: [CommandSpec]) throws(Failure) -> [CommandDescription] {
        var known = Dictionary(commands.map { ($0.name, CommandDescription($0)) }, uniquingKeysWith: { first, _ in first })
        let missingPrograms = Set(CommandIndex.all.filter { known[$0.name] == nil }.map(\.program))
        for program in CommandProgram.allCases where missingPrograms.contains(program) {
            for description in try ask(program) where known[description.name] == nil {
                known[description.name] = description
            }
        }
        return try CommandIndex.all.map { entry throws(Failure) in
            guard let description = known[entry.name] else {
                throw Failure(description: "\(entry.program.rawValue) does not describe '\(entry.name)'")
            }
            return description
        }
    }

    /// Runs the sibling binary's `__describe` and reads its answer.
    private static func ask(_ program: CommandProgram) throws(Failure) -> [CommandDescription] {
        guard let path = SiblingProgram.path(program), FileManager.default.isExecutableFile(atPath: path) else {
            throw Failure(description: "cannot find \(program.rawValue) beside this program; install it in the same directory")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [describeCommand]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot start \(path): \(error.localizedDescription)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let described = try? JSONDecoder().decode([CommandDescription].self, from: data) else {
            throw Failure(description: "\(program.rawValue) \(describeCommand) gave no command list (exit \(process.terminationStatus))")
        }
        return described
    }
}
