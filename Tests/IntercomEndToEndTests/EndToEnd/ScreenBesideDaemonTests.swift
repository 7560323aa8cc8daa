import Foundation
import IntercomPhoneTestSupport
import Testing
import IntercomTestSupport

/// A screen started beside this user's running daemon, on the same SIP port, names the daemon
/// instead of "the other program".
@Suite(.removesTestFolders) struct ScreenBesideDaemonTests {
    @Test func aBusyPortNamesTheDaemonThatHoldsIt() async throws {
        let port = try FreePort.udpAndTCP()
        let daemon = try DaemonProcess(config: """
            [sip]
            listen = udp:127.0.0.1:\(port)
            unknown_callers = reject
            """, name: "beside")
        try await withCleanup({ _ = await daemon.stop() }) {
            let started = try await daemon.waitUntilStarted()
            let environment = try IntercomBinary.environment(in: daemon.directory).compactMapValues { $0 }
            let command = "\(try IntercomBinary.path()) tui --own-engine --no-ring --config \(daemon.configURL.path)"
            let tmux = try await Tmux(command: "/bin/sh -c '\(command); echo exit=$?; sleep 30'", width: 200, height: 24,
                                      environment: environment)
            try await withCleanup({ await tmux.kill() }) {
                let screen = try await tmux.waitForScreen(containing: "exit=")
                #expect(screen.contains("this user's intercom daemon (pid \(daemon.process.pid))"), "\(screen)\n\(started)")
                #expect(screen.contains("exit=69"), "\(screen)")
            }
        }
    }
}
