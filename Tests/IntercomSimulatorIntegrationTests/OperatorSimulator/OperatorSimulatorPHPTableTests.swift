import Foundation
import IntercomTestSupport
import IntercomBase
import IntercomSimulator
import Testing

/// Every endpoint the client calls, asked of the simulated operator over HTTP and checked against a
/// table of what SmartYard-Server's PHP answers: the status, and the name and JSON type of each field
/// of `data` (of its first item for a list). Each row cites the PHP file it was read from
/// (rosteleset/SmartYard-Server, server/…); a field the PHP leaves to a backend whose type could not
/// be read there is `.any`. A second subscriber who is not the owner is not in the fixture yet, so
/// the owner-only fields are checked for the owner; the non-owner's side is FlatSettingsCommandTests'.
@Suite(.removesTestFolders) struct OperatorSimulatorPHPTableTests {
    enum Kind: Equatable, CustomStringConvertible {
        case string, integer, array, object, any
        var description: String { "\(self)" }

        static func of(_ value: JSONValue) -> Kind? {
            switch value {
            case .string: .string
            case .integer: .integer
            case .array: .array
            case .object: .object
            default: nil
            }
        }
    }

    struct Row: CustomStringConvertible {
        let method: String
        let body: String
        let status: Int
        let fields: [(String, Kind)]
        /// The PHP file the row was read from.
        let php: String
        var description: String { "\(method) (\(php))" }
    }

    /// `{flatId}` is the fixture's flat, `{uuid}` a log entry with a picture, `{day}` its day.
    static let rows: [Row] = [
        Row(method: "user/requestCode", body: #"{"userPhone":"79123456781","method":"sms"}"#, status: 200,
            fields: [("method", .string)], php: "server/mobile/user/requestCode.php"),
        Row(method: "user/ping", body: "{}", status: 204, fields: [], php: "server/mobile/user/ping.php"),
        Row(method: "address/getAddressList", body: "{}", status: 200,
            fields: [("houseId", .string), ("address", .string), ("hasPlog", .string), ("doors", .array), ("cctv", .integer)],
            php: "server/mobile/address/getAddressList.php"),
        Row(method: "address/getSettingsList", body: "{}", status: 200,
            fields: [("address", .string), ("houseId", .string), ("flatId", .string), ("flatNumber", .string), ("doorCode", .string),
                     ("flatOwner", .string), ("hasGates", .string), ("hasPlog", .string), ("services", .array),
                     ("contractOwner", .string), ("roommates", .array), ("keys", .array)],
            php: "server/mobile/address/getSettingsList.php"),
        Row(method: "address/intercom", body: #"{"flatId":"{flatId}"}"#, status: 200,
            fields: [("allowDoorCode", .string), ("doorCode", .string), ("CMS", .string), ("VoIP", .string), ("autoOpen", .string),
                     ("whiteRabbit", .string), ("disablePlog", .string), ("hiddenPlog", .string)],
            php: "server/mobile/address/intercom.php"),
        Row(method: "address/resetCode", body: #"{"flatId":"{flatId}"}"#, status: 200, fields: [("code", .any)],
            php: "server/mobile/address/resetCode.php"),
        Row(method: "address/openDoor", body: #"{"domophoneId":"1","doorId":0}"#, status: 204, fields: [],
            php: "server/mobile/address/openDoor.php"),
        Row(method: "address/plogDays", body: #"{"flatId":"{flatId}"}"#, status: 200, fields: [("day", .string), ("events", .any)],
            php: "server/mobile/address/plogDays.php"),
        Row(method: "address/plog", body: #"{"flatId":"{flatId}","day":"{day}"}"#, status: 200,
            fields: [("date", .string), ("uuid", .string), ("previewType", .any), ("objectId", .string), ("objectType", .string),
                     ("objectMechanizma", .string), ("mechanizmaDescription", .string), ("houseId", .integer),
                     ("entranceId", .integer), ("event", .string), ("detailX", .object), ("preview", .string)],
            php: "server/mobile/address/plog.php"),
        Row(method: "cctv/all", body: "{}", status: 200,
            fields: [("id", .integer), ("name", .string), ("lat", .string), ("lon", .string), ("url", .string), ("token", .string)],
            php: "server/mobile/cctv/all.php"),
        Row(method: "cctv/all", body: #"{"houseId":"999"}"#, status: 204, fields: [], php: "server/mobile/cctv/all.php (no camera)"),
        Row(method: "ext/options", body: "{}", status: 200,
            fields: [("cityCams", .string), ("payments", .string), ("chat", .string), ("timeZone", .string), ("guestAccess", .string),
                     ("version", .integer), ("entrancesView", .string), ("addressVerificationTabLayoutVisible", .string),
                     ("addressVerificationTab1Visible", .string), ("addressVerificationTab2Visible", .string),
                     ("eventsTracking", .string), ("stories", .string), ("faceGroups", .string), ("faceClustering", .string)],
            php: "server/mobile/ext/options.php"),
        Row(method: "inbox/unreaded", body: "{}", status: 200, fields: [("count", .any), ("chat", .any)],
            php: "server/mobile/inbox/unreaded.php"),
        Row(method: "frs/like", body: "{}", status: 405, fields: [], php: "server/mobile/frs/like.php (no event)"),
        Row(method: "address/access", body: #"{"flatId":"{flatId}","guestPhone":"79990001122"}"#, status: 204, fields: [],
            php: "server/mobile/address/access.php"),
    ]

    /// A list's first item.
    static func first(_ value: JSONValue) -> JSONValue? {
        if case .array(let items) = value { items.first } else { nil }
    }

    @Test func everyEndpointAnswersAsThePHP() async throws {
        try await withOperator { simulator, curl in
            let token = try await curl.login(simulator)
            simulator.recordCall(answered: false)
            let flatId = try #require(try await curl.post("address/getSettingsList", token: token).data.flatMap(Self.first)?["flatId"]?.stringValue)
            let day = try #require(try await curl.post("address/plogDays", #"{"flatId":"\#(flatId)"}"#, token: token)
                .data.flatMap(Self.first)?["day"]?.stringValue)
            for row in Self.rows {
                let body = row.body.replacingOccurrences(of: "{flatId}", with: flatId).replacingOccurrences(of: "{day}", with: day)
                let answer = try await curl.post(row.method, body, token: token)
                #expect(answer.status == row.status, "\(row): HTTP \(answer.status) \(answer.text)")
                guard !row.fields.isEmpty else { continue }
                let data = answer.data
                let item = data.flatMap(Self.first) ?? data
                for (name, kind) in row.fields {
                    guard let value = item?[name] else {
                        Issue.record("\(row): no \(name) in \(answer.text)")
                        continue
                    }
                    if kind != .any { #expect(Kind.of(value) == kind, "\(row): \(name) is \(value.encoded), the PHP sends \(kind)") }
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
