import Foundation
import IntercomTestSupport
import IntercomBase
import IntercomSimulator
import Testing

/// Every endpoint the client calls, asked of the simulated operator over HTTP in the order of
/// OperatorPHPTable's rows and checked against what SmartYard-Server's PHP answers there. The state a
/// row needs comes from the rows before it over the same HTTP calls (a plate added before it is
/// listed, a face liked before it is listed and taken off); the log entries are the panel's doing, so
/// the simulator records them. A second subscriber who is not the owner is not in the fixture yet, so
/// the owner-only fields are checked for the owner; the non-owner's side is FlatSettingsCommandTests'.
@Suite(.removesTestFolders) struct OperatorSimulatorPHPTableTests {
    typealias Table = OperatorPHPTable

    @Test func everyEndpointAnswersAsThePHP() async throws {
        try await withOperator { simulator, curl in
            let token = try await curl.login(simulator)
            let call = simulator.recordCall(answered: false)
            simulator.recordRecognition(face: 17)
            let flatId = try #require(try await curl.post("address/getSettingsList", token: token).data.flatMap(Table.first)?["flatId"]?.stringValue)
            let day = try #require(try await curl.post("address/plogDays", #"{"flatId":"\#(flatId)"}"#, token: token)
                .data.flatMap(Table.first)?["day"]?.stringValue)
            let log = try await curl.post("address/plog", #"{"flatId":"\#(flatId)","day":"\#(day)"}"#, token: token)
            let face = try #require(Table.items(log.data).first { $0["event"]?.stringValue == "5" }?["uuid"]?.stringValue, "\(log.text)")
            let cameraId = try #require(try await curl.post("cctv/all", token: token).data.flatMap(Table.first)?["id"].flatMap(Table.text))
            let values = ["{flatId}": flatId, "{day}": day, "{call}": call, "{face}": face, "{cameraId}": cameraId]
            for row in Table.rows {
                let body = values.reduce(row.body) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
                let answer = try await curl.post(row.method, body, token: token)
                #expect(answer.status == row.status, "\(row): HTTP \(answer.status) \(answer.text)")
                let data = answer.data
                let item = data.flatMap(Table.first) ?? data
                if let kind = row.data {
                    #expect(item.flatMap(Table.Kind.of) == kind, "\(row): data is \(answer.text), the PHP sends \(kind)")
                }
                for (name, kind) in row.fields {
                    guard let value = Table.field(name, of: item) else {
                        Issue.record("\(row): no \(name) in \(answer.text)")
                        continue
                    }
                    if kind != .any { #expect(Table.Kind.of(value) == kind, "\(row): \(name) is \(value.encoded), the PHP sends \(kind)") }
                }
            }
        }
    }

    /// The owner's log privacy as intercom.php writes it: disabled denies the log (plogDays 403),
    /// hidden alone keeps it to the owner, and enabling again with hidden off opens it to all.
    @Test func theLogPrivacyFollowsThePHP() async throws {
        try await withOperator { simulator, curl in
            let token = try await curl.login(simulator)
            simulator.recordCall(answered: false)
            func set(_ settings: String) async throws -> JSONValue? {
                try await curl.post("address/intercom", #"{"flatId":"1","settings":\#(settings)}"#, token: token).data
            }
            let hidden = try await set(#"{"hiddenPlog":"t"}"#)
            #expect(hidden?["hiddenPlog"] == .string("t") && hidden?["disablePlog"] == .string("f"))
            #expect(try await curl.post("address/plogDays", #"{"flatId":"1"}"#, token: token).status == 200, "the owner still reads it")
            let disabled = try await set(#"{"disablePlog":"t"}"#)
            #expect(disabled?["disablePlog"] == .string("t") && disabled?["hiddenPlog"] == .string("t"))
            #expect(try await curl.post("address/plogDays", #"{"flatId":"1"}"#, token: token).status == 403)
            // hiddenPlog alone does not reopen a disabled log.
            #expect(try await set(#"{"hiddenPlog":"f"}"#)?["disablePlog"] == .string("t"))
            let open = try await set(#"{"disablePlog":"f","hiddenPlog":"f"}"#)
            #expect(open?["disablePlog"] == .string("f") && open?["hiddenPlog"] == .string("f"))
            #expect(try await curl.post("address/plogDays", #"{"flatId":"1"}"#, token: token).status == 200)
        }
    }
}
