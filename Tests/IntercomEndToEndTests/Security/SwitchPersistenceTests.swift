import Foundation
import IntercomCore
@testable import IntercomSimulator
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport
import IntercomPhoneTestSupport

/// Switches survive, or the caller hears that they did not (issue 22): the real daemon, restarted,
/// with `ctl` and a real mosquitto as the callers and an in-process simulated panel ringing it.
@Suite("security: switches outlive a restart or are refused", .serialized, .removesTestFolders)
struct SwitchPersistenceTests {
    /// `guest_mode` of panel `entrance` in `ctl status`.
    static func guestMode(_ daemon: DaemonProcess) async throws -> Bool? {
        let status = try await daemon.run(["ctl", "status"])
        let json = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        let panels = json?["panels"] as? [[String: Any]] ?? []
        return panels.first { $0["name"] as? String == "entrance" }?["guest_mode"] as? Bool
    }

    /// Rings the daemon from `panel` and waits for the call's end; the call's events, in order.
    static func ring(_ panel: SimulatedPanel, _ daemon: DaemonProcess) async throws -> [DaemonEvent] {
        let uri = "sip:resident@127.0.0.1:\(try daemon.port("udp"))"
        let before = Set(daemon.events.compactMap { $0.string("call") })
        try await panel.ring(uri, video: false)
        let incoming = try await daemon.waitForEvent("call_incoming") { !before.contains($0.string("call") ?? "") }
        let call = incoming.string("call")
        try await daemon.waitForEvent("call_ended", timeout: .seconds(15)) { $0.string("call") == call }
        await TestPatience.eventually(within: .seconds(10)) { panel.activeCalls.isEmpty }
        return daemon.events.filter { $0.string("call") == call }
    }

    /// The daemon's topic root, and a subscriber to it made once the states of the connect are out,
    /// so everything it gets unretained came after.
    static func subscribe(_ broker: Mosquitto) async throws -> (String, MQTTSubscriber) {
        let first = try await broker.subscribe(["homeassistant/#", "intercom/#"])
        let root = try await MQTTRig.root(first)
        // call_state is the last state the bridge publishes for a panel (MQTTBridge.publishStates).
        try await first.wait(for: root + "/entrance/call_state")
        return (root, try await broker.subscribe([root + "/#"]))
    }

    /// A daemon run in `directory` until `body` is done, then stopped (exit 0 expected).
    static func run(_ config: String, in directory: TestDirectory, name: String,
                    _ body: (DaemonProcess) async throws -> Void) async throws {
        let daemon = try DaemonProcess(config: config, name: name, directory: directory)
        try await withCleanup({ _ = await daemon.stop() }) {
            try await daemon.waitUntilStarted()
            try await MQTTRig.waitConnected(daemon)
            try await body(daemon)
            #expect(await daemon.stop() == 0, "\(daemon.log)")
        }
    }

    @Test("guest mode off, by ctl and by MQTT, outlives restarts despite a future guest_until; the panel's next call is not answered by guest mode")
    func guestOffOutlivesRestarts() async throws {
        try await withStaticPicture {
            let broker = try await Mosquitto()
            try await broker.start()
            let directory = try TestDirectory(prefix: "intercom-switch-restart")
            let panel = try await SimulatedPanel.start(sip: SimulatedPanelSIPOptions(
                dataDirectory: try directory.subdirectory("panel").path, ringTimeout: .seconds(2)))
            let config = MQTTRig.config(broker: broker, httpPort: panel.http.port, entrance: "guest_until = 2099-01-01 00:00")
            // An older `intercom tui` made the state folder 0755: the first switch tightens it.
            let state = try directory.subdirectory("state").path + "/intercom"
            #expect(mkdir(state, 0o755) == 0 && chmod(state, 0o755) == 0)
            try await withCleanup({ await panel.stop(); await broker.stop() }) {
                try await Self.run(config, in: directory, name: "switch-1") { daemon in
                    #expect(try await Self.guestMode(daemon) == true)
                    // The rig works: guest mode answers the panel while the config's guest_until holds.
                    let call = try await Self.ring(panel, daemon)
                    #expect(call.contains { $0.name == "call_answered" && $0.string("by") == "guest_mode" }, "\(call)")
                    let off = try await daemon.run(["ctl", "guest", "off", "--panel", "entrance"])
                    #expect(off.status == 0, "\(off)")
                    var info = stat()
                    #expect(lstat(state, &info) == 0 && info.st_mode & 0o777 == 0o700, "mode \(String(info.st_mode & 0o777, radix: 8))")
                    #expect(daemon.log.contains("tightened it to 0700"), "\(daemon.log)")
                }
                try await Self.run(config, in: directory, name: "switch-2") { daemon in
                    #expect(try await Self.guestMode(daemon) == false, "ctl's guest off did not outlive the restart\n\(daemon.log)")
                    let call = try await Self.ring(panel, daemon)
                    #expect(!call.contains { $0.name == "call_answered" }, "\(call)")
                    #expect(call.last?.string("reason") == "missed", "\(call)")
                    #expect(!daemon.names.contains("door_opened"), "\(daemon.events)")
                    // Home Assistant's switch: on, then off again.
                    let (root, live) = try await Self.subscribe(broker)
                    for (payload, state) in [("ON", "ON"), ("OFF", "OFF")] {
                        try await broker.publish(root + "/entrance/guest/set", payload)
                        try await live.wait(for: root + "/entrance/guest/state") { $0.text == state && !$0.retained }
                    }
                    #expect(live.messages.filter { $0.topic == root + "/result" }.allSatisfy { $0.json?["ok"] as? Bool == true })
                }
                try await Self.run(config, in: directory, name: "switch-3") { daemon in
                    #expect(try await Self.guestMode(daemon) == false, "MQTT's guest off did not outlive the restart\n\(daemon.log)")
                    let call = try await Self.ring(panel, daemon)
                    #expect(!call.contains { $0.name == "call_answered" }, "\(call)")
                    #expect(!daemon.names.contains("door_opened"), "\(daemon.events)")
                }
            }
        }
    }

    @Test("a state folder intercom cannot use: ctl and MQTT switches are refused with the reason and change nothing; doctor names the folder")
    func unsavableSwitchIsRefused() async throws {
        let broker = try await Mosquitto()
        try await broker.start()
        let directory = try TestDirectory(prefix: "intercom-switch-refused")
        // A symlink in place of the folder (someone else's link target, or a stale one): refused for any uid.
        let state = try directory.subdirectory("state").path + "/intercom"
        #expect(symlink(try directory.subdirectory("elsewhere").path, state) == 0)
        let config = MQTTRig.config(broker: broker)
        try await withCleanup({ await broker.stop() }) {
            try await Self.run(config, in: directory, name: "switch-refused") { daemon in
                // Said at start too: under systemd, doctor (run in a shell) cannot see the sandbox.
                try await daemon.process.waitForOutput(containing: "guest switches will be refused", in: .stderr)
                for command in [["calls", "off"], ["guest", "2099-01-01 00:00"]] {
                    let ctl = try await daemon.run(["ctl"] + command + ["--panel", "entrance"])
                    #expect(ctl.status == 1, "\(ctl)")
                    #expect(ctl.stderr.contains(state) && ctl.stderr.contains("symlink") && ctl.stderr.contains("not switched"), "\(ctl)")
                    #expect(!ctl.stderr.contains("XDG_RUNTIME_DIR"), "\(ctl)")
                }
                let status = try await daemon.run(["ctl", "status"])
                #expect(status.stdout.contains("\"calls\": true") && status.stdout.contains("\"guest_mode\": false"), "\(status)")
                // The screens hear it too: an `error` event (the TUI's status line shows those).
                let error = try await daemon.waitForEvent("error")
                #expect(error.string("message")?.contains("not switched to calls off") == true, "\(error)")

                // MQTT: the result says why, and the state topic repeats the value in force.
                let (root, live) = try await Self.subscribe(broker)
                try await broker.publish(root + "/entrance/dnd/set", "ON")
                let result = try await live.wait(for: root + "/result") { $0.json?["topic"] as? String == root + "/entrance/dnd/set" }
                #expect(result.json?["ok"] as? Bool == false, "\(result)")
                #expect((result.json?["error"] as? String)?.contains("symlink") == true, "\(result)")
                try await live.wait(for: root + "/entrance/dnd/state") { $0.text == "OFF" && !$0.retained }
            }
            let doctor = try await IntercomBinary.run(["doctor", "--config", directory.file("config.ini").path], in: directory,
                                                      timeout: .seconds(60))
            let line = doctor.stdout.split(separator: "\n").first { $0.contains(state) } ?? ""
            #expect(line.hasPrefix("  !!") && line.contains("symlink") && line.contains("refused"), "\(doctor)")
        }
    }
}
