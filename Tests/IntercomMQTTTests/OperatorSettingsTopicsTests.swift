import Foundation
import IntercomBase
@testable import IntercomMQTT
import Testing

/// An operator flat's settings on MQTT without a broker: each switch's payload becomes `ctl
/// settings`'s command (auto_open ON: a day), the minutes a select, anything else a refusal for the
/// result topic; the reply's settings become every state; Home Assistant gets an entity per key.
@Suite struct OperatorSettingsTopicsTests {
    private static let topics = MQTTTopics(settings: MQTTSettings(url: "mqtt://127.0.0.1"), host: "hall")

    private func parse(_ topic: String, _ payload: String) -> MQTTCommandRequest? {
        MQTTCommandRequest.parse(MQTTMessage(topic: topic, text: payload), topics: Self.topics, panels: [],
                                 operatorDoors: OperatorDoorLevels([]), operators: ["yard"], guestMinutes: 60)
    }

    @Test func switchesAndMinutesBecomeTheSettingsCommand() {
        let base = "intercom/hall/operator/yard/settings/"
        #expect(parse(base + "white_rabbit/set", "5") == .command(.flatSettings(FlatSettingsRequest(operatorName: "yard", changes: ["white_rabbit=5"]))))
        #expect(parse(base + "white_rabbit/set", "7.0") == .command(.flatSettings(FlatSettingsRequest(operatorName: "yard", changes: ["white_rabbit=7"]))))
        #expect(parse(base + "auto_open/set", "ON") == .command(.flatSettings(FlatSettingsRequest(operatorName: "yard", changes: ["auto_open=1d"]))))
        #expect(parse(base + "hidden_plog/set", "OFF") == .command(.flatSettings(FlatSettingsRequest(operatorName: "yard", changes: ["hidden_plog=off"]))))
        guard case .refused(let minutes)? = parse(base + "white_rabbit/set", "4"),
              case .refused(let payload)? = parse(base + "cms/set", "yes"),
              case .refused(let key)? = parse(base + "door_code/set", "ON") else {
            Issue.record("a bad payload or key was taken")
            return
        }
        #expect(minutes.hasSuffix("send minutes, one of 0, 1, 2, 3, 5, 7, 10"))
        #expect(payload.hasSuffix("send ON or OFF"))
        #expect(key.hasPrefix("no setting 'door_code'"))
        #expect(parse("intercom/hall/operator/dacha/settings/cms/set", "ON") == nil, "not a configured operator's")
    }

    @Test func theSettingsReadBackAreEveryState() throws {
        let owner = try #require(JSONValue.parse(#"{"cms":false,"voip":true,"auto_open":"2026-12-08 19:00:00","white_rabbit":5,"disable_plog":false,"hidden_plog":true}"#))
        let states = OperatorSettingsTopics.states(owner).map { "\($0.key)=\($0.text)" }
        #expect(states == ["cms=OFF", "voip=ON", "auto_open=ON", "disable_plog=OFF", "hidden_plog=ON", "white_rabbit=5"])
        let member = try #require(JSONValue.parse(#"{"cms":true,"voip":true,"auto_open":"off","white_rabbit":0,"disable_plog":null,"hidden_plog":null}"#))
        #expect(OperatorSettingsTopics.states(member).map(\.key) == ["cms", "voip", "auto_open", "white_rabbit"])
    }

    @Test func homeAssistantGetsASwitchPerFlagAndASelectForTheMinutes() {
        let configs = HomeAssistantDiscovery(topics: Self.topics).configs(panels: [], operatorDoors: [], operators: ["yard"])
        let settings = configs.map(\.topic).filter { $0.contains("operator_yard_") && !$0.hasSuffix("_log/config") && !$0.hasSuffix("_unread/config") }
        #expect(settings.count == 6, "\(settings)")
        #expect(settings.contains("homeassistant/select/intercom_hall/operator_yard_white_rabbit/config"))
        #expect(configs.first { $0.topic.hasSuffix("operator_yard_hidden_plog/config") }?.payload["command_topic"]
                == .string("intercom/hall/operator/yard/settings/hidden_plog/set"))
    }
}
