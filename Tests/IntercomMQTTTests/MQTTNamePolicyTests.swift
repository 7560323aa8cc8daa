import Foundation
import IntercomBase
@testable import IntercomMQTT
import Testing

/// Names on MQTT without a broker: two Russian panels are two devices with their own buttons and
/// commands, and operator doors the API lists with ids that fold into one slug keep a button each
/// (a stable suffix). The real broker: DaemonMQTTNamesTests.
@Suite struct MQTTNamePolicyTests {
    private static let topics = MQTTTopics(settings: MQTTSettings(url: "mqtt://127.0.0.1"), host: "hall")

    @Test func russianPanelsAreTwoDevicesWithTheirOwnDoors() throws {
        let panels = [PanelConfig(name: "Вход", url: "http://192.168.1.50"), PanelConfig(name: "Двор", url: "http://192.168.1.51")]
        let configs = HomeAssistantDiscovery(topics: Self.topics).configs(panels: panels, operatorDoors: [])
        #expect(Set(configs.map(\.topic)).count == 24, "\(configs.map(\.topic))")
        let doors = configs.filter { $0.topic.hasSuffix("_door_main/config") }.map(\.topic)
        #expect(doors == ["homeassistant/button/intercom_hall/vkhod_door_main/config",
                          "homeassistant/button/intercom_hall/dvor_door_main/config"], "\(doors)")
        let press = MQTTMessage(topic: "intercom/hall/dvor/door/main/open", text: "PRESS")
        let parsed = MQTTCommandRequest.parse(press, topics: Self.topics, panels: panels.map(\.name),
                                              operatorDoors: OperatorDoorLevels([]), guestMinutes: 60)
        #expect(parsed == .command(.open(panel: "Двор", door: .main, by: .mqtt)))
    }

    @Test func operatorDoorsThatFoldTogetherKeepAButtonEach() throws {
        let ids = ["home:a.b:0", "home:a b:0", "home:12:1"]
        let levels = OperatorDoorLevels(ids)
        let first = try #require(levels.level("home:a.b:0")), second = try #require(levels.level("home:a b:0"))
        #expect(first == "home_a_b_0_5397a4a9" && second.hasPrefix("home_a_b_0_") && first != second, "\(first) \(second)")
        #expect(levels.level("home:12:1") == "home_12_1", "a door alone keeps its plain slug")
        // The API's order does not move a button, nor does a restart (the hash is not per process).
        #expect(OperatorDoorLevels(ids.reversed()).level("home:a b:0") == second)
        #expect(OperatorDoorLevels.hash("home:a b:0") == OperatorDoorLevels.hash("home:a b:0") && OperatorDoorLevels.hash("") == "811c9dc5")
        #expect(levels.left.isEmpty && levels.ids == ids)

        let press = MQTTMessage(topic: "intercom/hall/operator/\(second)/open", text: "PRESS")
        let parsed = MQTTCommandRequest.parse(press, topics: Self.topics, panels: [], operatorDoors: levels, guestMinutes: 60)
        #expect(parsed == .command(.open(panel: "home:a b:0", door: .main, by: .mqtt)))
        let doors = ids.map { DoorListing(id: $0, name: "Gate", source: .operator, owner: "home", domophoneId: "1") }
        let configs = HomeAssistantDiscovery(topics: Self.topics).configs(panels: [], operatorDoors: doors)
        #expect(Set(configs.map(\.topic)).count == 3, "\(configs.map(\.topic))")
    }
}
