import Foundation
import IntercomPhoneTestSupport
import Testing
import IntercomTestSupport

/// Names as Home Assistant gets them from a real daemon and mosquitto: two panels named in Russian
/// are two devices with two door buttons (they once shared the topic `____`), a press opens only
/// its own panel, and names that would still share a topic, or plain MQTT to another machine, stop
/// the config at load.
@Suite("daemon: MQTT names and plain brokers", .removesTestFolders) struct DaemonMQTTNamesTests {
    @Test("panels Вход and Двор: a door button each, under vkhod and dvor; Двор's press opens Двор only")
    func russianPanelsEachTheirOwnButton() async throws {
        let broker = try await Mosquitto()
        try await broker.start()
        let httpPort = try FreePort.udpAndTCP()
        // Двор is the simulated panel; Вход is at an address where nothing answers.
        let config = MQTTRig.config(broker: broker, httpPort: httpPort, panels: ["Вход"])
            .replacingOccurrences(of: "[panel entrance]", with: "[panel Двор]")
        let daemon = try DaemonProcess(config: config, name: "mqtt-names")
        let panel = try await MQTTRig.panel(httpPort: httpPort, in: daemon.directory)
        try await withCleanup({ await panel.stop(); await daemon.stop(); await broker.stop() }) {
            try await MQTTRig.waitConnected(daemon)
            let subscriber = try await broker.subscribe(["homeassistant/#", "intercom/#"])
            let root = DaemonMQTTExposureTests.root
            var buttons: [String: [String: Any]] = [:]
            for slug in ["vkhod", "dvor"] {
                let message = try await subscriber.wait(for: "homeassistant/button/\(MQTTRig.node)/\(slug)_door_main/config")
                buttons[slug] = message.json
            }
            #expect(buttons["dvor"]?["command_topic"] as? String == root + "/dvor/door/main/open", "\(buttons)")
            #expect(buttons["vkhod"]?["command_topic"] as? String == root + "/vkhod/door/main/open", "\(buttons)")
            // The display names stay the real ones.
            #expect((buttons["dvor"]?["device"] as? [String: Any])?["name"] as? String == "Двор panel", "\(buttons)")
            #expect((buttons["vkhod"]?["device"] as? [String: Any])?["name"] as? String == "Вход panel", "\(buttons)")
            await TestPatience.eventually(within: .seconds(5)) { subscriber.messages.filter { $0.topic.hasSuffix("/config") }.count >= 24 }
            let configs = subscriber.messages.filter { $0.topic.hasSuffix("/config") }
            #expect(configs.count == 24 && !configs.contains { $0.topic.contains("/____") }, "\(configs.map(\.topic))")

            try await broker.publish(root + "/dvor/door/main/open", "PRESS")
            try await panel.waitForOutput(containing: "door opened: main (http)", in: .stdout, timeout: .seconds(5))
            let opened = try await daemon.waitForEvent("door_opened")
            #expect(opened.string("panel") == "Двор" && opened.string("by") == "mqtt" && opened["ok"] as? Bool == true, "\(opened)")

            // Вход's button reaches Вход (which does not answer), never the panel of Двор.
            try await broker.publish(root + "/vkhod/door/main/open", "PRESS")
            let other = try await daemon.waitForEvent("door_opened", timeout: .seconds(30)) { $0.string("panel") == "Вход" }
            #expect(other["ok"] as? Bool == false, "\(other)")
            #expect(panel.stdout.components(separatedBy: "door opened").count == 2, "\(panel.stdout)")
        }
    }

    @Test("two panels that still share a topic, or mqtt:// to another machine: refused at load in one line, exit 65")
    func refusedAtLoad() async throws {
        let directory = try TestDirectory(prefix: "intercom-e2e-mqtt-names")
        let panels = "[sip]\nlisten = udp:127.0.0.1:0\n\n[panel Front door]\nurl = http://127.0.0.2:9\n\n"
            + "[panel front_door]\nurl = http://127.0.0.2:9\n\n"
        let cases = [
            (panels + "[mqtt]\nurl = mqtt://127.0.0.1:1883\n", ["'Front door'", "'front_door'", "rename one"]),
            ("[sip]\nlisten = udp:127.0.0.1:0\n\n[mqtt]\nurl = mqtt://192.0.2.10:1883\n", ["'url'", "in clear", "allow_plain = yes"]),
        ]
        for (text, words) in cases {
            let config = try IntercomBinary.writeConfig(text, in: directory)
            for command in [["config", "--check"], ["daemon"]] {
                let run = try await IntercomBinary.run(command + ["--config", config.path], in: directory, timeout: .seconds(30))
                let lines = run.stderr.split(separator: "\n")
                #expect(run.status == 65 && lines.count == 1 && words.allSatisfy { lines.first?.contains($0) == true },
                        "\(command): \(run.stderr)")
            }
        }
    }
}
