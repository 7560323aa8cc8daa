import Foundation
import IntercomCLI
import IntercomEngine
import IntercomSimulator
import IntercomBase

/// `intercom demo`: no config, no hardware. A simulated Beward panel on loopback rings this
/// client's screen within seconds, and again after every call.
enum DemoCommand {
    static let spec = CommandSpec(
        name: "demo",
        summary: "see the whole flow with no panel: a simulated panel on loopback rings this screen",
        options: TUICommand.options + [.value("--ring-every", "SECONDS", "ring again this long after each call (default 5)")],
        details: """
        The simulated panel serves its camera and doors over HTTP (Digest auth) on 127.0.0.1 and calls
        over SIP with audio and video. Answer with a, open the door with o, hang up with h, quit with q.
        """,
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let pause = Double(invocation.arguments.value("--ring-every") ?? "5") ?? -1
        guard pause >= 0 else {
            return Console.fail(UsageError(message: "--ring-every takes seconds", command: "demo").description,
                                code: ExitCode.usage)
        }
        // A private mkdtemp folder: the phones' plugin folders go in it (PrivateTemporaryDirectory).
        let directory: PrivateTemporaryDirectory
        do {
            directory = try PrivateTemporaryDirectory.make(prefix: "intercom-demo")
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
        defer { directory.remove() }
        let work = directory.path
        let panel: SimulatedPanel
        do {
            panel = try await SimulatedPanel.start(sip: SimulatedPanelSIPOptions(dataDirectory: "\(work)/panel"))
        } catch {
            return Console.fail("the simulated panel did not start: \(error)", code: ExitCode.unavailable)
        }
        let config = IntercomConfig(
            sip: SIPSettings(listen: [ListenAddress(transport: .udp, host: "127.0.0.1", port: 0)]),
            panels: [PanelConfig(name: "porch", url: panel.http.baseURL, user: "admin", password: "admin",
                                 match: [.uriPrefix("sip:100001@")], open: .both)],
            daemon: DaemonSettings(socketPath: "\(work)/control.sock"),
            // The demo's calls are not the resident's: they stay out of the real journal.
            journal: JournalSettings(path: "\(work)/journal"))
        var settings = TUICommand.phoneSettings(config, invocation)
        settings.dataDirectory = "\(work)/client"
        let intercom = Intercom(config: config, phoneSettings: settings, logger: TUICommand.quietLogger(invocation))
        let code = await TUICommand.runScreen(intercom, invocation: invocation, kiosk: false, label: "demo") {
            let port = await intercom.listening.first?.port ?? 0
            Self.keepRinging(panel, uri: "sip:intercom@127.0.0.1:\(port)", pause: pause)
        }
        await panel.stop()
        return code
    }

    /// Rings 1.5 s after start, then `pause` seconds after each call ends, until the panel stops.
    private static func keepRinging(_ panel: SimulatedPanel, uri: String, pause: Double) {
        Task {
            try? await Task.sleep(nanoseconds: 1_500_000_000)
            _ = try? await panel.ring(uri)
            for await event in panel.events {
                guard case .ended = event else { continue }
                try? await Task.sleep(nanoseconds: UInt64(pause * 1e9))
                _ = try? await panel.ring(uri)
            }
        }
    }
}
