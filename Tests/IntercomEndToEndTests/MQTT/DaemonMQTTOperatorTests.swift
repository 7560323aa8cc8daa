import Foundation
import IntercomTestSupport
import IntercomPhoneTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// An operator account on MQTT, against `intercom simulate-operator`: Home Assistant's event entity
/// for its log and sensor for its unread messages (configs Home Assistant accepts), the retained
/// unread count, and a new log entry on the event entity's topic.
@Suite(.removesTestFolders) struct DaemonMQTTOperatorTests {
    @Test func unreadSensorAndLogEventEntity() async throws {
        let broker = try await Mosquitto()
        try await broker.start()
        let simulator = try await SimulatorProcess.operator(["--no-camera", "--message", "Hello"], prefix: "intercom-e2e-mqtt-op")
        try await withCleanup({ await simulator.stop(); await broker.stop() }) {
            let url = try simulator.operatorURL()
            let daemon = try DaemonProcess(config: MQTTRig.config(broker: broker) + """

                [operator home]
                api = \(url)
                phone = 79123456781
                log_interval = 1
                """, name: "mqtt-operator")
            try await withCleanup({ _ = await daemon.stop() }) {
                let subscriber = try await broker.subscribe(["#"])
                try await MQTTRig.waitConnected(daemon)
                let node = MQTTRig.node
                var root = ""
                for (component, object) in [("event", "operator_home_log"), ("sensor", "operator_home_unread")] {
                    let topic = "homeassistant/\(component)/\(node)/\(object)/config"
                    let config = try #require(try await subscriber.wait(for: topic).json, "\(topic)")
                    #expect(HomeAssistantSchema.problems(component: component, topic: topic, config: config).isEmpty,
                            "\(HomeAssistantSchema.problems(component: component, topic: topic, config: config))")
                    root = String((config["availability_topic"] as? String ?? "").dropLast("/status".count))
                }
                let login = try await daemon.loginToSimulatedOperator()
                #expect(login.status == 0, "\(login)")
                kill(daemon.process.pid, SIGHUP)
                let unread = try await subscriber.wait(for: root + "/operator/home/unread")
                #expect(unread.text == "1", "\(unread)")
                try await daemon.waitForEvent("operator_message")

                simulator.signal(SIGUSR2)  // an unanswered call in the log
                let event = try await subscriber.wait(for: root + "/operator/home/event")
                #expect(event.json?["event_type"] as? String == "call_missed" && event.json?["door"] as? String == "home:1:0"
                        && event.json?["who"] as? String == "call", "\(event)")
                // The camera that saw the entry, as plog names it (issue 42).
                #expect(event.json?["camera"] as? String == "home:cam:1", "\(event)")
            }
        }
    }

    /// The flat's settings from Home Assistant: the minutes' select and a switch reach the operator
    /// (`intercom settings` asks it and shows them), and the settings read back are every state.
    @Test func settingsSwitchesReachTheOperator() async throws {
        let broker = try await Mosquitto()
        try await broker.start()
        let simulator = try await SimulatorProcess.operator(["--no-camera"], prefix: "intercom-e2e-mqtt-settings")
        try await withCleanup({ await simulator.stop(); await broker.stop() }) {
            let daemon = try DaemonProcess(config: MQTTRig.config(broker: broker)
                + "\n[operator home]\napi = \(try simulator.operatorURL())\nphone = 79123456781\n", name: "mqtt-settings")
            try await withCleanup({ _ = await daemon.stop() }) {
                let subscriber = try await broker.subscribe(["#"])
                try await MQTTRig.waitConnected(daemon)
                for (component, object) in [("select", "operator_home_white_rabbit"), ("switch", "operator_home_hidden_plog")] {
                    let topic = "homeassistant/\(component)/\(MQTTRig.node)/\(object)/config"
                    let config = try #require(try await subscriber.wait(for: topic).json, "\(topic)")
                    #expect(HomeAssistantSchema.problems(component: component, topic: topic, config: config).isEmpty,
                            "\(HomeAssistantSchema.problems(component: component, topic: topic, config: config))")
                }
                let login = try await daemon.loginToSimulatedOperator()
                #expect(login.status == 0, "\(login)")
                let base = try await MQTTRig.root(subscriber) + "/operator/home/settings/"
                try await broker.publish(base + "white_rabbit/set", "5")
                try await broker.publish(base + "hidden_plog/set", "ON")
                try await subscriber.wait(for: base + "white_rabbit/state", where: { $0.text == "5" })
                try await subscriber.wait(for: base + "hidden_plog/state", where: { $0.text == "ON" })
                let shown = try await daemon.run(["settings", "home"])
                #expect(shown.stdout.contains("white_rabbit  5 min") && shown.stdout.contains("hidden_plog   on"), "\(shown)")
            }
        }
    }
}
