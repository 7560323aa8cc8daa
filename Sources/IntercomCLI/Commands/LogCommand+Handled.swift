import Foundation
import IntercomBase

/// `intercom log --handled ENTRY [--by WHO]`: takes a missed call out of the desk's queue and
/// keeps who dealt with it. The journal is SQLite in WAL mode: this small write beside a running
/// daemon waits its turn like any reader.
extension LogCommand {
    static func markHandled(_ id: String, _ invocation: Invocation) -> Int32 {
        guard let row = Int64(id), row > 0 else {
            return Console.fail(UsageError(message: "--handled takes a missed call's id (the \"id\" of log --unhandled --json), not '\(id)'",
                                           command: "log").description, code: ExitCode.usage)
        }
        let who = invocation.arguments.value("--by") ?? invocation.environment["USER"] ?? "unknown"
        let config: IntercomConfig
        do {
            config = try invocation.loadConfig()
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
        do {
            let journal = try Journal(directory: JournalLocation.directory(config.journal, environment: invocation.environment),
                                      create: false)
            let entry = try journal.markHandled(row, by: who)
            if invocation.arguments.has("--json") {
                Console.out(entry.json.encoded)
            } else {
                Console.out("entry \(row) (\(entry.placeText), \(LocalTime(entry.time).clock)) handled by \(entry.handledBy ?? who)")
            }
            return ExitCode.ok
        } catch {
            return Console.fail(error.description, code: ExitCode.dataError)
        }
    }
}
