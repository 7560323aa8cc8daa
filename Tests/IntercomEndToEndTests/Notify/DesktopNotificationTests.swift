import Foundation
import IntercomPhoneTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport

/// `intercom daemon` with `[notify] desktop = on` on a private session bus, a notification server
/// stub (`NotificationServerStub`) and a simulated panel: the ring as a notification with the
/// panel's picture and buttons, a button doing what the key does (`by: notification`), the
/// notification closed when the call is answered elsewhere, and a forged button press ignored.
@Suite("daemon: desktop notifications", .serialized, .removesTestFolders) struct DesktopNotificationTests {
    /// The daemon on `stub`'s bus with panel `entrance` at the simulated panel's HTTP port, and
    /// the panel (`--events json`) ringing the daemon at each SIGUSR1 for `ringFor` seconds.
    private struct Rig {
        let stub: NotificationServerStub
        let daemon: DaemonProcess
        let panel: SimulatorProcess

        static func start(actions: Bool, name: String) async throws -> Rig {
            let stub = try await NotificationServerStub.start(actions: actions)
            do {
                let httpPort = try FreePort.udpAndTCP()
                let config = DaemonProcess.simulatedPanelConfig(httpPort: httpPort) + "\n[notify]\ndesktop = on\n"
                let daemon = try DaemonProcess(config: config, extraArguments: ["--log-level", "info"], name: name,
                                               shell: "DBUS_SESSION_BUS_ADDRESS='\(stub.address)' exec \"$0\" \"$@\"")
                try await daemon.waitUntilStarted()
                let panel = try await SimulatorProcess.panel(["--http-port", String(httpPort), "--events", "json",
                                                              "--call", "sip:resident@\(try daemon.hostPort())", "--ring-on-signal",
                                                              "--ring-for", "20"], in: daemon.directory)
                return Rig(stub: stub, daemon: daemon, panel: panel)
            } catch {
                await stub.stop()
                throw error
            }
        }

        func stop() async {
            await panel.stop()
            await daemon.stop()
            await stub.stop()
        }

        /// The panel's JSON events named `name`.
        func panelEvents(_ name: String) -> [[String: Any]] {
            panel.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .filter { $0["event"] as? String == name }
        }
    }

    /// Seconds since 1970 of an RFC 3339 time with milliseconds, as the daemon and the simulator print.
    static func seconds(_ text: String?) -> Double? {
        guard let text else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)?.timeIntervalSince1970
    }

    @Test("a ring shows the panel's name, picture and buttons; Open opens the door at the panel; a forged press is ignored")
    func ringShowsAndOpenOpens() async throws {
        let rig = try await Rig.start(actions: true, name: "notify-open")
        try await withCleanup({ await rig.stop() }) {
            rig.panel.signal(SIGUSR1)
            let incoming = try await rig.daemon.waitForEvent("call_incoming")
            let shown = try await rig.stub.wait(for: "Notify") { $0["replaces"] as? Int == 0 }
            #expect(shown["summary"] as? String == "entrance is calling", "\(shown)")
            #expect(shown["actions"] as? [String] == ["answer", "Answer", "open", "Open door", "decline", "Decline"], "\(shown)")
            #expect(shown["urgency"] as? Int == 2, "\(shown)")
            let id = try #require(shown.id)
            // The first peephole picture, in place (or already in the first Notify).
            let pictured = try await rig.stub.wait(for: "Notify") { $0.id == id && $0["image"] != nil && !($0["image"] is NSNull) }
            let image = try #require(pictured["image"] as? [String: Any])
            let width = try #require(image["width"] as? Int), height = try #require(image["height"] as? Int)
            #expect(width > 0 && height > 0 && image["rowstride"] as? Int == width * 3 && image["channels"] as? Int == 3
                    && image["bytes"] as? Int == width * height * 3, "\(image)")
            // A thumbnail for a popup, not the panel's whole 960×540 frame (1.5 MB a Notify).
            let bytes = try #require(image["bytes"] as? Int)
            #expect(bytes <= 256 * 1024 && width <= 320 && height <= 180, "\(image)")
            let ringToShown = (shown.time - (Self.seconds(incoming.string("time")) ?? 0)) * 1000
            print("measure: call_incoming → notification shown: \(String(format: "%.1f", ringToShown)) ms")
            let ringToPicture = (pictured.time - (Self.seconds(incoming.string("time")) ?? 0)) * 1000
            print("measure: call_incoming → notification with the picture (\(width)×\(height), \(bytes) bytes): "
                  + "\(String(format: "%.1f", ringToPicture)) ms")
            #expect(ringToPicture < 3000, "the picture within 3 s of the INVITE: \(ringToPicture) ms")
            let frame = try await rig.daemon.waitForEvent("peephole_frame")
            let ringToFrame = ((Self.seconds(frame.string("time")) ?? 0) - (Self.seconds(incoming.string("time")) ?? 0)) * 1000
            print("measure: call_incoming → first peephole_frame (the snapshot's own time): \(String(format: "%.1f", ringToFrame)) ms")

            // Anyone else on the bus saying "open" for our notification is not the server: ignored.
            try rig.stub.press("open", on: id, forge: true)
            try await rig.daemon.process.waitForOutput(containing: "not the server that showed it (ignored)", in: .stderr)
            #expect(rig.panelEvents("door_opened").isEmpty, "\(rig.panel.stdout)")

            try rig.stub.press("open", on: id)
            let pressed = try await rig.stub.wait(for: "invoke")
            try await rig.panel.waitForOutput(containing: "\"door_opened\"", in: .stdout, timeout: .seconds(10))
            let door = try #require(rig.panelEvents("door_opened").first)
            let pressToDoor = ((Self.seconds(door["time"] as? String) ?? 0) - pressed.time) * 1000
            print("measure: Open pressed → door request at the panel: \(String(format: "%.1f", pressToDoor)) ms")
            let opened = try await rig.daemon.waitForEvent("door_opened")
            #expect(opened.string("by") == "notification" && opened["ok"] as? Bool == true, "\(opened)")
            let answered = try await rig.daemon.waitForEvent("call_answered")
            #expect(answered.string("by") == "notification", "\(answered)")
            // Answered (to open the door): the notification is taken back.
            try await rig.stub.wait(for: "CloseNotification") { $0.id == id }
            #expect(rig.panelEvents("door_opened").count == 1, "\(rig.panel.stdout)")

            try await rig.daemon.waitForEvent("call_ended")
            let log = try await rig.daemon.run(["log", "--json"])
            #expect(log.stdout.contains("\"by\":\"notification\""), "\(log)")
        }
    }

    @Test("answering from another face (ctl answer) closes the notification; a server without actions gets no buttons")
    func answeredElsewhereCloses() async throws {
        let rig = try await Rig.start(actions: false, name: "notify-ctl")
        try await withCleanup({ await rig.stop() }) {
            rig.panel.signal(SIGUSR1)
            let shown = try await rig.stub.wait(for: "Notify")
            #expect(shown["actions"] as? [String] == [], "\(shown)")
            let id = try #require(shown.id)
            let ctl = try await rig.daemon.run(["ctl", "answer"])
            #expect(ctl.status == 0, "\(ctl)")
            let answered = try await rig.daemon.waitForEvent("call_answered")
            #expect(answered.string("by") == "user", "\(answered)")
            try await rig.stub.wait(for: "CloseNotification") { $0.id == id }
        }
    }

    @Test("without a session bus the daemon runs on and doctor says so once")
    func noSessionBus() async throws {
        let directory = try TestDirectory(prefix: "intercom-e2e-nobus")
        let config = try IntercomBinary.writeConfig("[sip]\nlisten = udp:127.0.0.1:0\n", in: directory)
        let doctor = try await IntercomBinary.run(["doctor", "--config", config.path], in: directory, timeout: .seconds(30))
        let lines = doctor.stdout.split(separator: "\n").filter { $0.contains("desktop notifications") }
        #expect(lines.count == 1 && lines[0].contains("no session bus"), "\(doctor.stdout)")
    }
}
