import Foundation
import IntercomCore

/// `intercom snapshot [PANEL] [-o FILE.jpg]`: one picture from the panel's camera.
enum SnapshotCommand {
    static let spec = CommandSpec(
        name: "snapshot",
        summary: "fetch one picture from a panel (images_cgi) and save it as JPEG",
        arguments: "[PANEL]",
        maxPositionals: 1,
        options: [.value("-o", "FILE.jpg", "where to write it; '-' writes to stdout (default PANEL-DATE-TIME.jpg)")],
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let panel: PanelConfig
        let client: BewardPanel
        switch PanelCommand.client(invocation) {
        case .success(let found): (panel, client) = found
        case .failure(let failure): return Console.fail(failure.message, code: failure.code)
        }
        let jpeg: Data
        do {
            jpeg = try await client.snapshot()
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
        let size = (try? JPEG.size(of: jpeg)).map { "\($0)" } ?? "size unknown"
        let output = invocation.arguments.value("-o") ?? defaultName(panel.name)
        if output == "-" {
            FileHandle.standardOutput.write(jpeg)
            return ExitCode.ok
        }
        do {
            try jpeg.write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            return Console.fail("cannot write \(output): \(error.localizedDescription)", code: ExitCode.failure)
        }
        Console.out("saved \(output) (\(size), \(jpeg.count / 1024) KB)")
        return ExitCode.ok
    }

    static func defaultName(_ panel: String) -> String {
        let safe = panel.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        let stamp = String(format: "%04d%02d%02d-%02d%02d%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                           parts.tm_hour, parts.tm_min, parts.tm_sec)
        return "\(String(safe))-\(stamp).jpg"
    }
}
