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
}
