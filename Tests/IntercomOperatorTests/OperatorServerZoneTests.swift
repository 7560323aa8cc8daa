import Foundation
import IntercomBase
import Testing
@testable import IntercomOperator

/// The server's zone, learned from the log entry of an opening the client asked for, and the
/// `timezone` and `language` settings.
@Suite struct OperatorServerZoneTests {
    let sent = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00:00 UTC

    func entry(_ date: String, event: String = "4", door: String = "1", output: String = "0", phone: String = "79123456781") -> JSONValue {
        .object([("date", .string(date)), ("event", .string(event)), ("objectId", .string(door)),
                 ("objectMechanizma", .string(output)), ("detailX", .object([("phone", .string(phone))]))])
    }

    @Test func anOwnOpeningShowsTheOffset() {
        let probe = OperatorZoneProbe(sent: sent, domophoneId: "1", doorId: 0)
        // PHP on UTC writes 08:00:03; on Moscow 11:00:03; on India 13:30:03.
        #expect(OperatorServerZone.learn(from: [entry("2027-01-15 08:00:03")], probe: probe, phone: "79123456781") == 0)
        #expect(OperatorServerZone.learn(from: [entry("2027-01-15 11:00:03")], probe: probe, phone: nil) == 3 * 3600)
        #expect(OperatorServerZone.learn(from: [entry("2027-01-15 13:30:03")], probe: probe, phone: nil) == 19800)
        // Another door, another event, another phone, or a time off every quarter hour: not it.
        #expect(OperatorServerZone.learn(from: [entry("2027-01-15 08:00:03", door: "2")], probe: probe, phone: nil) == nil)
        #expect(OperatorServerZone.learn(from: [entry("2027-01-15 08:00:03", event: "3")], probe: probe, phone: nil) == nil)
        #expect(OperatorServerZone.learn(from: [entry("2027-01-15 08:00:03", phone: "79990001122")], probe: probe,
                                         phone: "79123456781") == nil)
        #expect(OperatorServerZone.learn(from: [entry("2027-01-15 08:07:30")], probe: probe, phone: nil) == nil)
        // The nearest fit wins over an older opening of the same door an hour before.
        #expect(OperatorServerZone.learn(from: [entry("2027-01-15 10:01:50"), entry("2027-01-15 11:00:02")],
                                         probe: probe, phone: nil) == 3 * 3600)
    }

    @Test func theZoneKeepsTheNamedOneWhenItAgrees() throws {
        let moscow = try #require(TimeZone(identifier: "Europe/Moscow"))
        #expect(OperatorServerZone.zone(offset: 3 * 3600, named: moscow) == moscow)
        #expect(OperatorServerZone.zone(offset: 0, named: moscow).secondsFromGMT() == 0)
        #expect(OperatorServerZone.describe(-16200) == "UTC-04:30")
        #expect(OperatorServerZone.describe(10800) == "UTC+03:00")
    }

    @Test func credentialsKeepTheLessonBesideTheToken() throws {
        let credentials = OperatorCredentials(deviceId: "d", token: "t", serverOffset: 0,
                                              zoneProbe: OperatorZoneProbe(sent: sent, domophoneId: "1", doorId: 1))
        let json = try #require(JSONValue.parse(credentials.json.encoded))
        let read = try #require(OperatorCredentials(json: json))
        #expect(read == credentials)
        #expect(OperatorCredentials(json: .object([("device_id", .string("d"))]))?.serverOffset == nil)
    }

    @Test func timezoneAndLanguageSettings() {
        #expect(OperatorConfig.zone("Europe/Moscow")?.identifier == "Europe/Moscow")
        #expect(OperatorConfig.zone("+03:00")?.secondsFromGMT() == 10800)
        #expect(OperatorConfig.zone("UTC+3")?.secondsFromGMT() == 10800)
        #expect(OperatorConfig.zone("-0430")?.secondsFromGMT() == -16200)
        #expect(OperatorConfig.zone("UTC")?.secondsFromGMT() == 0)
        #expect(OperatorConfig.zone("+15") == nil)
        #expect(OperatorConfig.zone("Mars/Olympus") == nil)
        #expect(OperatorConfig.language(environment: ["LANG": "ru_RU.UTF-8"]) == "ru")
        #expect(OperatorConfig.language(environment: ["LANG": "ru_RU.UTF-8", "LC_ALL": "de_DE.UTF-8"]) == "de")
        #expect(OperatorConfig.language(environment: ["LANG": "C.UTF-8"]) == "en")
        #expect(OperatorConfig.language(environment: [:]) == "en")
    }
}
