import Foundation
import Testing
@testable import IntercomBase

/// What names become in MQTT topics and Home Assistant ids (transliterated as Home Assistant's
/// own slugify does), names that would still share a topic refused at load naming both, and
/// plain `mqtt://` to another machine refused unless `allow_plain = yes`.
@Suite struct ConfigMQTTNameTests {
    private static func config(_ body: String, mqtt: String = "url = mqtt://127.0.0.1:1883") -> String {
        "[sip]\nlisten = udp:127.0.0.1:5060\n\n" + body + "\n[mqtt]\n" + mqtt + "\n"
    }

    private static func panel(_ name: String, line: String = "") -> String {
        "[panel \(name)]\nurl = http://192.168.1.50\n\(line)\n"
    }

    @Test(arguments: [
        ("Вход", "vkhod"), ("Двор", "dvor"), ("Подъезд 2", "podezd_2"), ("Щит", "shchit"), ("Ёлка", "elka"),
        ("Юг-Ясная", "iug-iasnaia"), ("Їжак", "izhak"), ("Ґанок", "ganok"),
        // ASCII keeps the rule it always had: no existing topic moves.
        ("entrance", "entrance"), ("Back Yard", "back_yard"), ("gate-1", "gate-1"), ("a  b", "a__b"),
        ("Café", "cafe"), ("Straße", "strasse"), ("№5", "no5"), ("大门", "u5927u95e8"), ("«Двор»", "_dvor_"),
    ])
    func slug(name: String, expected: String) {
        #expect(MQTTName.slug(name) == expected)
    }

    @Test func russianPanelsKeepTheirOwnNames() throws {
        let loaded = try parseConfig(Self.config(Self.panel("Вход") + Self.panel("Двор")))
        #expect(loaded.config.panels.map(\.name) == ["Вход", "Двор"])
        #expect(Set(loaded.config.panels.map { MQTTName.slug($0.name) }) == ["vkhod", "dvor"])
    }

    @Test func panelsThatStillCollideAreRefusedNamingBoth() throws {
        let error = try #require(configError(Self.config(Self.panel("Front door") + Self.panel("front_door"))))
        let line = error.description
        #expect(line.contains("'Front door'") && line.contains("'front_door'") && line.contains("rename one"), "\(line)")
        #expect(!line.contains("\n") && error.exitCode == 65 && error.line == 7, "\(line)")
    }

    @Test func operatorsThatCollideAreRefused() throws {
        let operators = "[operator Дом]\napi = https://api.example.org/mobile\n\n[operator дом]\napi = https://b.example.org/mobile\n"
        // Case alone is caught as a repeated name; the slug check catches what only transliteration folds.
        let folded = "[operator Дом-1]\napi = https://api.example.org/mobile\n\n[operator dom-1]\napi = https://b.example.org/mobile\n"
        #expect(configError(Self.config(operators))?.message.contains("already used") == true)
        let error = try #require(configError(Self.config(folded)))
        #expect(error.message.contains("'Дом-1'") && error.message.contains("'dom-1'") && error.message.contains("'dom-1'"), "\(error)")
    }

    @Test func withoutMQTTTheNamesAreNotChecked() throws {
        let text = "[sip]\nlisten = udp:127.0.0.1:5060\n\n" + Self.panel("Front door") + Self.panel("front_door")
        #expect(try parseConfig(text).config.panels.count == 2)
    }

    @Test(arguments: ["mqtt://192.0.2.10:1883", "mqtt://broker.lan", "mqtt://[2001:db8::1]:1883", "MQTT://10.0.0.2"])
    func plainToAnotherMachineIsRefused(url: String) throws {
        let error = try #require(configError(Self.config(Self.panel("entrance"), mqtt: "url = \(url)")))
        #expect(error.key == "url" && error.exitCode == 65 && error.message.contains("in clear"), "\(error)")
        #expect(error.description.contains("allow_plain = yes") && error.description.contains("mqtts://"), "\(error)")
    }

    @Test(arguments: ["mqtt://127.0.0.1:1883", "mqtt://127.8.9.10", "mqtt://localhost:1883", "mqtt://[::1]:1883",
                      "mqtts://192.0.2.10:8883", "mqtts://broker.lan"])
    func loopbackOrTLSNeedsNothing(url: String) throws {
        let loaded = try parseConfig(Self.config(Self.panel("entrance"), mqtt: "url = \(url)"))
        #expect(loaded.config.mqtt?.allowPlain == false)
    }

    @Test func allowPlainSaysSoExplicitly() throws {
        let loaded = try parseConfig(Self.config(Self.panel("entrance"), mqtt: "url = mqtt://192.0.2.10:1883\nallow_plain = yes"))
        #expect(loaded.config.mqtt?.allowPlain == true && loaded.config.mqtt?.plainOffLoopback == true)
        let bad = try #require(configError(Self.config(Self.panel("entrance"), mqtt: "url = mqtt://127.0.0.1\nallow_plain = maybe")))
        #expect(bad.key == "allow_plain", "\(bad)")
    }
}
