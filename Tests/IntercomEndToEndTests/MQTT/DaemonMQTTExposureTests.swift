import Foundation
import IntercomPhoneTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport

/// What the daemon says about who else can press the doors, and how it treats what the broker
/// sends unasked: retained commands kept at the broker, and Home Assistant's births in bulk.
@Suite("daemon: MQTT exposure, retained commands, births", .removesTestFolders) struct DaemonMQTTExposureTests {
    /// `intercom/<host>`, as the daemon names its topic root.
    static var root: String { "intercom/" + MQTTRig.node.dropFirst("intercom_".count) }

    @Test("no [mqtt] user, or plain TCP to another host: a warning at start and in doctor naming the door topics")
    func exposureWarnings() async throws {
        let broker = try await Mosquitto()
        try await broker.start()
        let door = Self.root + "/entrance/door/main/open"
        let daemon = try DaemonProcess(config: MQTTRig.config(broker: broker), name: "mqtt-exposed")
        try await withCleanup({ await daemon.stop(); await broker.stop() }) {
            try await MQTTRig.waitConnected(daemon)
            let warning = try #require(daemon.process.stderr.split(separator: "\n").first { $0.contains("[mqtt] has no user") },
                                       "\(daemon.log)")
            #expect(warning.contains(door) && warning.contains(Self.root + "/entrance/door/alt/open") && warning.contains("ACL"),
                    "\(warning)")
            #expect(!daemon.log.contains("plain TCP"), "a loopback broker is not 'another machine'\n\(daemon.log)")
            await daemon.stop()

            let doctor = try await daemon.run(["doctor"])
            #expect(doctor.stdout.contains("[mqtt] has no user") && doctor.stdout.contains(door), "\(doctor.stdout)")

            // Another machine over plain TCP, allowed explicitly (doctor only: tests reach nothing beyond
            // loopback; without allow_plain the config is refused, DaemonMQTTNamesTests).
            let remote = try IntercomBinary.writeConfig(MQTTRig.config(broker: broker)
                .replacingOccurrences(of: broker.url, with: "mqtt://192.0.2.10:1883") + "user = intercom\npassword = pw\nallow_plain = yes\n",
                in: daemon.directory, name: "remote.ini")
            let far = try await IntercomBinary.run(["doctor", "--config", remote.path], in: daemon.directory, timeout: .seconds(30))
            let line = try #require(far.stdout.split(separator: "\n").first { $0.contains("plain TCP to another machine") }, "\(far.stdout)")
            #expect(line.contains(door) && line.contains("mqtts://") && line.contains("allow_plain"), "\(line)")
            #expect(!far.stdout.contains("has no user"), "\(far.stdout)")

            // A user on a loopback broker: nothing to warn about.
            let quiet = try IntercomBinary.writeConfig(MQTTRig.config(broker: broker, mqtt: "user = intercom\npassword = pw\n"),
                                                       in: daemon.directory, name: "quiet.ini")
            let calm = try await IntercomBinary.run(["doctor", "--config", quiet.path], in: daemon.directory, timeout: .seconds(30))
            #expect(calm.stdout.contains("broker mqtt://127.0.0.1") && !calm.stdout.contains("anyone"), "\(calm.stdout)")
        }
    }

    @Test("the acl_file docs/MQTT.md gives: a third user's PRESS is dropped by the broker, Home Assistant's opens the door")
    func documentedACL() async throws {
        let doc = try String(contentsOf: InstalledProgram.repositoryRoot.appendingPathComponent("docs/MQTT.md"), encoding: .utf8)
        let blocks = doc.components(separatedBy: "```text\n").dropFirst().map { $0.components(separatedBy: "```").first ?? "" }
        let acl = try #require(blocks.first { $0.hasPrefix("# /etc/mosquitto/acl") }, "no acl_file block in docs/MQTT.md")
        let users = ["intercom": "pw-intercom", "homeassistant": "pw-ha", "neighbour": "pw-neighbour"]
        let broker = try await Mosquitto(users: users, acl: acl)
        try await broker.start()
        let httpPort = try FreePort.udpAndTCP()
        let daemon = try DaemonProcess(config: MQTTRig.config(broker: broker, httpPort: httpPort, mqtt: "user = intercom\npassword = pw-intercom\n"),
                                       name: "mqtt-acl")
        let panel = try await MQTTRig.panel(httpPort: httpPort, in: daemon.directory)
        try await withCleanup({ await panel.stop(); await daemon.stop(); await broker.stop() }) {
            try await MQTTRig.waitConnected(daemon)
            #expect(!daemon.log.contains("anyone"), "a user on a loopback broker: no exposure warning\n\(daemon.log)")
            // The daemon's own writes pass the ACL: Home Assistant reads the door's config.
            let homeAssistant = try await broker.subscribe(["homeassistant/#"], user: ("homeassistant", "pw-ha"))
            try await homeAssistant.wait(for: "homeassistant/button/\(MQTTRig.node)/entrance_door_main/config")
            // QoS 1: the broker has decided about the neighbour's PRESS before Home Assistant's is
            // sent, and hands the daemon what it lets through in that order.
            try await broker.publish(Self.root + "/entrance/door/main/open", "PRESS", user: ("neighbour", "pw-neighbour"))
            try await broker.publish(Self.root + "/entrance/door/alt/open", "PRESS", user: ("homeassistant", "pw-ha"))
            let opened = try await panel.waitForOutput(containing: "door opened: alt (http)", in: .stdout, timeout: .seconds(5))
            #expect(!opened.contains("door opened: main"), "the neighbour opened the door\n\(opened)")
            #expect(broker.log.contains("Denied PUBLISH"), "\(broker.log)")
        }
    }

    @Test("retained commands at the broker: one line a minute; a shell command (quoted) only for a topic of ours")
    func retainedCommandNotice() async throws {
        let broker = try await Mosquitto()
        try await broker.start()
        // Kept at the broker before the daemon subscribes: each is replayed to it with the retain flag.
        let hostile = [Self.root + "/x;id>$(whoami);/answer", Self.root + "/it's'/decline"]
        for topic in hostile { try await broker.publish(topic, "PRESS", retain: true) }
        let first = try DaemonProcess(config: MQTTRig.config(broker: broker), name: "mqtt-retained-junk")
        try await withCleanup({ await first.stop(); await broker.stop() }) {
            try await MQTTRig.waitConnected(first)
            try await first.process.waitForOutput(containing: "ignored a retained message", in: .stderr, timeout: .seconds(5))
            try await Task.sleep(for: .milliseconds(500))
            let lines = first.process.stderr.split(separator: "\n").filter { $0.contains("ignored a retained message") }
            #expect(lines.count == 1, "rate-limited: \(lines)")
            #expect(lines.allSatisfy { !$0.contains("mosquitto_pub") && $0.contains("not a command topic") }, "\(lines)")
            #expect(await first.stop() == 0)
            for topic in hostile { try await broker.publish(topic, "", retain: true) }

            // A retained command on a door topic of ours: the line says how to clear it, quoted for the shell.
            let door = Self.root + "/entrance/door/main/open"
            try await broker.publish(door, "PRESS", retain: true)
            let second = try DaemonProcess(config: MQTTRig.config(broker: broker), name: "mqtt-retained-door",
                                           directory: first.directory)
            try await withCleanup({ await second.stop() }) {
                try await second.process.waitForOutput(containing: "ignored a retained message", in: .stderr, timeout: .seconds(15))
                #expect(second.process.stderr.contains("clear it: mosquitto_pub -r -n -t '\(door)'"), "\(second.log)")
            }
            try await broker.publish(door, "", retain: true)
        }
    }

    @Test("50 Home Assistant births, then a door PRESS: the panel has the request within 100 ms; births fold into 3 republishes at most")
    func birthsNeverDelayDoors() async throws {
        let broker = try await Mosquitto()
        try await broker.start()
        let httpPort = try FreePort.udpAndTCP()
        let daemon = try DaemonProcess(config: MQTTRig.config(broker: broker, httpPort: httpPort, panels: ["yard"]), name: "mqtt-births")
        let panel = try await MQTTRig.panel(httpPort: httpPort, in: daemon.directory)
        let door = Self.root + "/entrance/door/main/open"
        func publisher(_ topic: String, _ name: String) throws -> Subprocess {
            try Subprocess("mosquitto_pub", ["-h", "127.0.0.1", "-p", String(broker.port), "-q", "1", "-t", topic, "-l"],
                           name: name, logDirectory: daemon.directory.url, stdin: true)
        }
        // Connected before the measured PRESS, so it does not wait for a process to start.
        let presser = try publisher(door, "mosquitto_pub-door")
        try await withCleanup({ await presser.stop(); await panel.stop(); await daemon.stop(); await broker.stop() }) {
            try await MQTTRig.waitConnected(daemon)
            let subscriber = try await broker.subscribe([Self.root + "/status"])
            try await subscriber.wait(for: Self.root + "/status") { $0.text == "online" && $0.retained }
            // Warm-up: the first opening also asks the panel its model.
            try presser.write(line: "PRESS")
            try await panel.waitForOutput(containing: "door opened: main (http)", in: .stdout)

            let births = try publisher("homeassistant/status", "mosquitto_pub-births")
            for _ in 0..<50 { try births.write(line: "online") }
            births.closeStdin()
            // QoS 1: mosquitto_pub ends once the broker has every birth, so they reach the daemon before the PRESS.
            #expect(try await births.waitForExit() == 0, "\(births.combinedOutput)")

            let pressed = ContinuousClock.now
            try presser.write(line: "PRESS")
            var reached: Duration?
            await TestPatience.eventually(within: .seconds(30), every: .milliseconds(2)) {
                guard panel.stdout.components(separatedBy: "door opened: main (http)").count - 1 >= 2 else { return false }
                reached = ContinuousClock.now - pressed
                return true
            }
            let elapsed = try #require(reached, "the PRESS never reached the panel\n\(daemon.log)")
            #expect(elapsed < .milliseconds(100), "the door waited \(elapsed) behind the births")

            // At most one republish in flight and one pending (HomeAssistantBirthFold): births heard during
            // a round's random pause (0–1 s) are covered by it, one heard while it publishes asks for one
            // more. The burst reaches the daemon over some milliseconds and a pause can be shorter than that,
            // so a second round, and with two short pauses in a row a third, can happen: three at most.
            try await subscriber.wait(for: Self.root + "/status") { $0.text == "online" && !$0.retained }
            let window = ContinuousClock.now + .seconds(4)
            var republishes = 0
            while ContinuousClock.now < window && republishes <= 3 {
                republishes = subscriber.messages.filter { $0.topic == Self.root + "/status" && !$0.retained && $0.text == "online" }.count
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect((1...3).contains(republishes), "\(republishes) republishes for 50 births")
        }
    }
}
