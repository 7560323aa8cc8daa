import Foundation
import IntercomPhoneTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport

/// `intercom daemon` with `[mqtt]` against a real mosquitto broker and a simulated panel: Home
/// Assistant discovery, the door button, the ring, do-not-disturb, availability and the will,
/// a broker restart and a refused login.
@Suite("daemon: MQTT and Home Assistant", .removesTestFolders) struct DaemonMQTTTests {
    @Test("discovery configs are retained and pass Home Assistant's schemas; online; ctl switches show on MQTT")
    func discoveryRetainedAndValid() async throws {
        let broker = try await Mosquitto()
        try await broker.start()
        let daemon = try DaemonProcess(config: MQTTRig.config(broker: broker, panels: ["Back Yard"]), name: "mqtt-discovery")
        try await withCleanup({ await daemon.stop(); await broker.stop() }) {
            try await daemon.waitUntilStarted()
            try await MQTTRig.waitConnected(daemon)
            try await Task.sleep(for: .milliseconds(300))
            // A subscriber that comes later, as Home Assistant after a restart, gets every config retained.
            let late = try await broker.subscribe(["homeassistant/#", "intercom/#"])
            let root = try await MQTTRig.root(late)
            let status = try await late.wait(for: root + "/status")
            #expect(status.text == "online" && status.retained, "\(status)")
            await TestPatience.eventually(within: .seconds(5)) {
                late.messages.filter { $0.topic.hasPrefix("homeassistant/") && $0.topic.hasSuffix("/config") }.count >= 24
            }
            let configs = late.messages.filter { $0.topic.hasPrefix("homeassistant/") && $0.topic.hasSuffix("/config") }
            #expect(configs.count == 24, "12 entities per panel: \(configs.map(\.topic))")
            var problems: [String] = []
            var uniqueIDs = Set<String>()
            for message in configs {
                #expect(message.retained, "\(message.topic) was not retained")
                let parts = message.topic.split(separator: "/")
                guard parts.count == 5, let json = message.json else {
                    problems.append("\(message.topic): not a discovery topic with a JSON object")
                    continue
                }
                #expect(parts[2] == Substring(MQTTRig.node), "\(message.topic)")
                problems += HomeAssistantSchema.problems(component: String(parts[1]), topic: message.topic, config: json)
                if let id = json["unique_id"] as? String { #expect(uniqueIDs.insert(id).inserted, "duplicate unique_id \(id)") }
                #expect(json["availability_topic"] as? String == root + "/status")
            }
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
            let kinds = Set(configs.map { String($0.topic.split(separator: "/")[1]) })
            #expect(kinds == ["button", "camera", "event", "binary_sensor", "sensor", "switch"], "\(kinds)")
            // One device per panel: every entity of a panel names the same identifiers.
            let devices = Dictionary(grouping: configs.compactMap { $0.json?["device"] as? [String: Any] },
                                     by: { ($0["identifiers"] as? [String])?.first ?? "" })
            #expect(devices.count == 2 && devices.values.allSatisfy { $0.count == 12 }, "\(devices.keys)")
            #expect(late.messages.contains { $0.topic == root + "/back_yard/dnd/state" && $0.text == "OFF" })

            // `intercom ctl calls off` goes through the same command: the switch and the event topic show it.
            let live = try await broker.subscribe([root + "/#"])
            let ctl = try await daemon.run(["ctl", "calls", "off", "--panel", "entrance"])
            #expect(ctl.status == 0, "\(ctl)")
            try await live.wait(for: root + "/entrance/dnd/state") { $0.text == "ON" }
            let event = try await live.wait(for: root + "/events") { $0.json?["event"] as? String == "panel_policy" }
            #expect(event.json?["panel"] as? String == "entrance" && event.json?["calls"] as? Bool == false, "\(event)")
            #expect(!event.retained)

            // The guest switch: on for `guest_minutes`, with its end time as an attribute; then off.
            try await broker.publish(root + "/entrance/guest/set", "ON")
            try await live.wait(for: root + "/entrance/guest/state") { $0.text == "ON" }
            try await live.wait(for: root + "/entrance/guest/attributes") { ($0.json?["until"] as? String)?.isEmpty == false }
            try await broker.publish(root + "/entrance/guest/set", "OFF")
            try await live.wait(for: root + "/entrance/guest/state") { $0.text == "OFF" }

            // Home Assistant's birth message: every config and state again.
            let again = try await broker.subscribe(["homeassistant/#"])
            try await broker.publish("homeassistant/status", "online")
            try await live.wait(for: root + "/status", timeout: .seconds(5)) { $0.text == "online" && !$0.retained }
            await TestPatience.eventually(within: .seconds(5)) {
                again.messages.filter { !$0.retained && $0.topic.hasSuffix("/config") }.count >= 24
            }
            #expect(again.messages.filter { !$0.retained && $0.topic.hasSuffix("/config") }.count == 24,
                    "configs republished after the birth message: \(again.messages.count)")

            // A clean stop says offline itself (a DISCONNECT makes the broker drop the will).
            #expect(await daemon.stop() == 0, "\(daemon.log)")
            try await live.wait(for: root + "/status") { $0.text == "offline" }
        }
    }

    @Test("a panel that left the config: its retained configs are emptied at the next start")
    func removedPanelConfigsEmptied() async throws {
        let broker = try await Mosquitto()
        try await broker.start()
        let first = try DaemonProcess(config: MQTTRig.config(broker: broker, panels: ["yard"]), name: "mqtt-before")
        try await withCleanup({ await first.stop(); await broker.stop() }) {
            try await MQTTRig.waitConnected(first)
            try await Task.sleep(for: .milliseconds(300))
            await first.stop()
            let before = try await broker.subscribe(["homeassistant/#"])
            await TestPatience.eventually(within: .seconds(5)) { before.messages.filter { $0.topic.contains("/yard_") }.count >= 12 }
            #expect(before.messages.filter { $0.topic.contains("/yard_") }.count == 12, "\(before.messages)")

            let second = try DaemonProcess(config: MQTTRig.config(broker: broker), name: "mqtt-after", directory: first.directory)
            try await withCleanup({ await second.stop() }) {
                try await MQTTRig.waitConnected(second)
                try await second.process.waitForOutput(containing: "no longer in the config", in: .stderr)
                try await Task.sleep(for: .milliseconds(800))
                let after = try await broker.subscribe(["homeassistant/#"])
                await TestPatience.eventually(within: .seconds(5)) { after.messages.filter { $0.topic.contains("/entrance_") }.count >= 12 }
                #expect(!after.messages.contains { $0.topic.contains("/yard_") }, "\(after.messages)")
                #expect(after.messages.filter { $0.topic.contains("/entrance_") }.count == 12)
            }
        }
    }

    @Test("pressing the door button makes the simulated panel open its door; bad and retained commands are refused")
    func doorButtonOpensPanel() async throws {
        let broker = try await Mosquitto()
        try await broker.start()
        let httpPort = try FreePort.udpAndTCP()
        let daemon = try DaemonProcess(config: MQTTRig.config(broker: broker, httpPort: httpPort), name: "mqtt-door")
        let panel = try await MQTTRig.panel(httpPort: httpPort, in: daemon.directory)
        try await withCleanup({ await panel.stop(); await daemon.stop(); await broker.stop() }) {
            try await MQTTRig.waitConnected(daemon)
            let subscriber = try await broker.subscribe(["homeassistant/#", "intercom/#"])
            let root = try await MQTTRig.root(subscriber)
            let door = try #require(subscriber.messages.first { $0.topic.hasSuffix("/entrance_door_main/config") }?.json?["command_topic"] as? String)
            try await broker.publish(door, "PRESS")
            try await panel.waitForOutput(containing: "door opened: main (http)", in: .stdout, timeout: .seconds(5))
            let ok = try await subscriber.wait(for: root + "/result") { $0.json?["topic"] as? String == door }
            #expect(ok.json?["ok"] as? Bool == true, "\(ok)")
            let opened = try await daemon.waitForEvent("door_opened")
            #expect(opened.string("by") == "mqtt" && opened["ok"] as? Bool == true, "\(opened)")

            try await broker.publish(door, "OPEN")
            let refused = try await subscriber.wait(for: root + "/result") { $0.json?["ok"] as? Bool == false }
            #expect((refused.json?["error"] as? String)?.contains("PRESS") == true, "\(refused)")
            #expect(daemon.process.stderr.contains("refused"), "a refused command is logged\n\(daemon.log)")

            // A retained PRESS acts once, live; the broker's replay of it at every later subscribe
            // (a reconnect, a restart) is ignored, or the door would open by itself each time.
            let alt = root + "/entrance/door/alt/open"
            try await broker.publish(alt, "PRESS", retain: true)
            try await panel.waitForOutput(containing: "door opened: alt (http)", in: .stdout, timeout: .seconds(5))
            #expect(await daemon.stop() == 0)
            let again = try DaemonProcess(config: MQTTRig.config(broker: broker, httpPort: httpPort), name: "mqtt-door-2",
                                          directory: daemon.directory)
            try await withCleanup({ await again.stop() }) {
                try await MQTTRig.waitConnected(again)
                try await again.process.waitForOutput(containing: "ignored a retained message", in: .stderr, timeout: .seconds(5))
                try await Task.sleep(for: .milliseconds(500))
                #expect(panel.stdout.components(separatedBy: "door opened: alt").count == 2, "\(panel.stdout)")
            }
            try await broker.publish(alt, "", retain: true)
        }
    }

    @Test("a panel call publishes the ring and ringing on/off; the DND switch declines the next call and holds across a restart")
    func ringAndDoNotDisturb() async throws {
        let broker = try await Mosquitto()
        try await broker.start()
        let httpPort = try FreePort.udpAndTCP()
        let daemon = try DaemonProcess(config: MQTTRig.config(broker: broker, httpPort: httpPort), name: "mqtt-ring")
        try await daemon.waitUntilStarted()
        let panel = try await MQTTRig.panel(httpPort: httpPort, call: "sip:resident@\(try daemon.hostPort())", ringFor: 2,
                                            in: daemon.directory)
        try await withCleanup({ await panel.stop(); await daemon.stop(); await broker.stop() }) {
            try await MQTTRig.waitConnected(daemon)
            let subscriber = try await broker.subscribe(["homeassistant/#", "intercom/#"])
            let root = try await MQTTRig.root(subscriber)
            let base = root + "/entrance"
            panel.signal(SIGUSR1)
            let ring = try await subscriber.wait(for: base + "/event") { $0.json?["event_type"] as? String == "ring" }
            #expect(!ring.retained && (ring.json?["from"] as? String)?.hasPrefix("sip:100001@") == true, "\(ring)")
            try await subscriber.wait(for: base + "/ringing") { $0.text == "ON" }
            try await subscriber.wait(for: base + "/call_state") { $0.text == "ringing" }
            let incoming = try await daemon.waitForEvent("call_incoming")
            let missed = try await daemon.waitForEvent("call_ended") { $0.string("call") == incoming.string("call") }
            #expect(missed.string("reason") == "missed", "\(missed)")
            try await subscriber.wait(for: base + "/ringing") { $0.text == "OFF" }
            let last = try await subscriber.wait(for: base + "/last_call")
            #expect(last.text.hasSuffix("Z") || last.text.dropLast(6).count < last.text.count, "\(last)")
            #expect(subscriber.messages.contains { $0.topic == root + "/events" && $0.json?["event"] as? String == "call_incoming" })

            try await broker.publish(base + "/dnd/set", "ON")
            try await subscriber.wait(for: base + "/dnd/state") { $0.text == "ON" }
            panel.signal(SIGUSR1)
            let second = try await daemon.waitForEvent("call_incoming") { $0.string("call") != incoming.string("call") }
            let declined = try await daemon.waitForEvent("call_ended") { $0.string("call") == second.string("call") }
            #expect(declined.string("reason") == "declined", "\(declined)")
            try await panel.waitForOutput(containing: "call ended", in: .stdout)

            // The switch outlives the daemon (kept in the state folder, which SIGHUP does not reread).
            #expect(await daemon.stop() == 0)
            let again = try DaemonProcess(config: MQTTRig.config(broker: broker, httpPort: httpPort), name: "mqtt-ring-2",
                                          directory: daemon.directory)
            try await withCleanup({ await again.stop() }) {
                try await MQTTRig.waitConnected(again)
                let status = try await again.run(["ctl", "status"])
                #expect(status.stdout.contains("\"calls\": false"), "\(status)")
                let after = try await broker.subscribe([base + "/dnd/state"])
                try await after.wait(for: base + "/dnd/state") { $0.text == "ON" && $0.retained }
            }
        }
    }

    @Test("the daemon killed with SIGKILL: the broker publishes availability offline (the will)")
    func killedDaemonGoesOffline() async throws {
        let broker = try await Mosquitto()
        try await broker.start()
        let daemon = try DaemonProcess(config: MQTTRig.config(broker: broker), name: "mqtt-kill")
        try await withCleanup({ await daemon.stop(); await broker.stop() }) {
            try await MQTTRig.waitConnected(daemon)
            let subscriber = try await broker.subscribe(["homeassistant/#", "intercom/#"])
            let root = try await MQTTRig.root(subscriber)
            try await subscriber.wait(for: root + "/status") { $0.text == "online" }
            daemon.process.kill()
            let offline = try await subscriber.wait(for: root + "/status", timeout: .seconds(5)) { $0.text == "offline" }
            #expect(!offline.retained, "live will message")
            let later = try await broker.subscribe([root + "/status"])
            try await later.wait(for: root + "/status") { $0.text == "offline" && $0.retained }
        }
    }

    @Test("the broker restarted: discovery and state republished, events of the outage delivered")
    func brokerRestart() async throws {
        let broker = try await Mosquitto()
        try await broker.start()
        let httpPort = try FreePort.udpAndTCP()
        let daemon = try DaemonProcess(config: MQTTRig.config(broker: broker, httpPort: httpPort), name: "mqtt-restart")
        try await daemon.waitUntilStarted()
        let panel = try await MQTTRig.panel(httpPort: httpPort, call: "sip:resident@\(try daemon.hostPort())", ringFor: 1,
                                            in: daemon.directory)
        try await withCleanup({ await panel.stop(); await daemon.stop(); await broker.stop() }) {
            try await MQTTRig.waitConnected(daemon)
            let first = try await broker.subscribe(["homeassistant/#", "intercom/#"])
            let root = try await MQTTRig.root(first)
            await first.stop()
            await broker.stop()
            try await daemon.process.waitForOutput(containing: "mqtt: lost the broker", in: .stderr)
            // A call while the broker is away: its events wait in the daemon's queue.
            panel.signal(SIGUSR1)
            let incoming = try await daemon.waitForEvent("call_incoming")
            let call = try #require(incoming.string("call"))
            try await daemon.waitForEvent("call_ended") { $0.string("call") == call }
            try await broker.start()
            let subscriber = try await broker.subscribe(["homeassistant/#", "intercom/#"])
            try await MQTTRig.waitConnected(daemon, count: 2, timeout: .seconds(40))
            for name in ["call_incoming", "call_ended"] {
                try await subscriber.wait(for: root + "/events") { $0.json?["event"] as? String == name && $0.json?["call"] as? String == call }
            }
            try await subscriber.wait(for: root + "/entrance/event") { $0.json?["event_type"] as? String == "ring" }
            // The restarted broker kept nothing; what a later subscriber gets was republished.
            let late = try await broker.subscribe(["homeassistant/#", "intercom/#"])
            try await late.wait(for: root + "/status") { $0.text == "online" && $0.retained }
            try await late.wait(for: root + "/entrance/dnd/state") { $0.retained }
            await TestPatience.eventually(within: .seconds(5)) { late.messages.filter { $0.topic.hasSuffix("/config") && $0.retained }.count >= 12 }
            #expect(late.messages.filter { $0.topic.hasSuffix("/config") && $0.retained }.count == 12, "\(late.messages)")
            let order = subscriber.messages.map(\.topic)
            if let config = order.firstIndex(where: { $0.hasSuffix("/config") }), let event = order.firstIndex(of: root + "/events") {
                #expect(config < event, "configs go out before the queued events: \(order)")
            }
        }
    }

    @Test("a wrong password: one clear line without the secret, the daemon keeps running; the right one connects")
    func wrongPassword() async throws {
        let broker = try await Mosquitto(users: ["intercom": "right-horse-battery"])
        try await broker.start()
        let secret = "wrong-staple-4711"
        let daemon = try DaemonProcess(config: MQTTRig.config(broker: broker, mqtt: "user = intercom\npassword = \(secret)\n"),
                                       name: "mqtt-auth")
        try await withCleanup({ await daemon.stop(); await broker.stop() }) {
            try await daemon.waitUntilStarted()
            try await daemon.process.waitForOutput(containing: "refused the login", in: .stderr, timeout: .seconds(10))
            try await Task.sleep(for: .seconds(3))
            let lines = daemon.process.stderr.split(separator: "\n").filter { $0.contains("refused the login") }
            #expect(lines.count == 1, "\(lines)")
            #expect(lines.first?.contains("user 'intercom'") == true && lines.first?.contains("[mqtt] user and password") == true,
                    "\(lines)")
            #expect(!daemon.log.contains(secret), "the password leaked\n\(daemon.log)")
            #expect(daemon.process.isRunning, "calls matter more than MQTT: the daemon keeps running")
            #expect(await daemon.stop() == 0)

            let right = try DaemonProcess(config: MQTTRig.config(broker: broker, mqtt: "user = intercom\npassword = right-horse-battery\n"),
                                          name: "mqtt-auth-ok")
            try await withCleanup({ await right.stop() }) {
                try await MQTTRig.waitConnected(right)
                #expect(!right.log.contains("right-horse-battery"))
            }
        }
    }

    @Test("an unreachable broker: one clear line, then connected once it comes up")
    func unreachableBroker() async throws {
        let broker = try await Mosquitto()
        let daemon = try DaemonProcess(config: MQTTRig.config(broker: broker), name: "mqtt-unreachable")
        try await withCleanup({ await daemon.stop(); await broker.stop() }) {
            try await daemon.waitUntilStarted()
            try await daemon.process.waitForOutput(containing: "unreachable", in: .stderr, timeout: .seconds(10))
            try await Task.sleep(for: .seconds(4))
            let lines = daemon.process.stderr.split(separator: "\n").filter { $0.contains("mqtt: broker") && $0.contains("unreachable") }
            #expect(lines.count == 1, "one line per outage, not per retry: \(lines)")
            try await broker.start()
            try await MQTTRig.waitConnected(daemon, timeout: .seconds(40))
        }
    }
}
