import Foundation
import IntercomTestSupport
import Testing

/// The first run points the way (issue 38): with no config, `intercom tui` (and plain `intercom`
/// on a terminal, which runs it) says on stderr where to start, even where the screen then cannot
/// open (no terminal here); with a config it does not. Plain `intercom` without a terminal prints
/// the command overview, as before.
@Suite("first run", .removesTestFolders) struct FirstRunTests {
    static let hint = "intercom: no config yet: `intercom setup` finds your panels, `intercom demo` shows a simulated one"

    @Test func noConfigSaysSetupAndDemo() async throws {
        let directory = try TestDirectory(prefix: "intercom-first-run")
        for arguments in [["tui"], ["tui", "--kiosk"]] {
            let run = try await IntercomBinary.run(arguments, in: directory)
            #expect(run.stderr.contains(Self.hint), "\(arguments): \(run)")
            // No terminal: the screen is refused as before, after the hint.
            #expect(run.status == 64 && run.stderr.contains("terminal"), "\(arguments): \(run)")
        }
        let config = try IntercomBinary.writeConfig("[sip]\nlisten = udp:127.0.0.1:0\n", in: directory)
        let configured = try await IntercomBinary.run(["tui", "--config", config.path], in: directory)
        #expect(!configured.stderr.contains("no config yet"), "\(configured)")
    }
}
