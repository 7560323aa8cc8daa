import Foundation
import IntercomBase

/// What SmartYard-Server's PHP answers for every endpoint the client calls (rosteleset/SmartYard-Server,
/// server/mobile/…): the status, and the name and JSON type of each field of `data` (of its first item
/// for a list). OperatorSimulatorPHPTableTests asks the simulated operator each row in order, so a row
/// may rely on the state an earlier one left (a plate added, a face registered).
enum OperatorPHPTable {
    /// A JSON type; its name (`String(describing:)`) is what a failure says.
    enum Kind: Equatable {
        case string, integer, bool, array, object
        /// A field the PHP leaves to a backend whose type could not be read there.
        case any

        static func of(_ value: JSONValue) -> Kind? {
            switch value {
            case .string: .string
            case .integer: .integer
            case .bool: .bool
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
        /// A dotted name is a field of a field (`names.name`), of its first item for a list.
        var fields: [(String, Kind)] = []
        /// The type of `data` itself, or of its first item for a list (a list of plates is of strings).
        var data: Kind? = nil
        /// The PHP file the row was read from.
        let php: String
        var description: String { "\(method) (\(php))" }
    }

    /// confirmCode.php's and checkPhone.php's answer: the token, and the subscriber's names (empty for a new one).
    static let grant: [(String, Kind)] = [("accessToken", .string), ("names", .object), ("names.name", .string),
                                          ("names.patronymic", .string), ("names.last", .string)]

    /// Placeholders the test fills in: `{flatId}` the fixture's flat, `{day}` the day of its log,
    /// `{call}` a missed call's entry (a picture, no face), `{face}` a recognition's entry (a face,
    /// id 17), `{cameraId}` the first camera of `cctv/all`.
    static let rows: [Row] = [
        Row(method: "user/requestCode", body: #"{"userPhone":"79123456781","method":"sms"}"#, status: 200,
            fields: [("method", .string)], php: "server/mobile/user/requestCode.php"),
        // The test number's fixed PIN, on another device so the test's own token stays.
        Row(method: "user/confirmCode", body: #"{"userPhone":"79123456781","smsCode":"1001","deviceToken":"table-2","platform":2}"#,
            status: 200, fields: Self.grant, php: "server/mobile/user/confirmCode.php"),
        Row(method: "user/checkPhone", body: #"{"userPhone":"79123456781","deviceToken":"table-3","platform":2}"#, status: 200,
            fields: Self.grant, php: "server/mobile/user/checkPhone.php (a test number)"),
        Row(method: "user/ping", body: "{}", status: 204, php: "server/mobile/user/ping.php"),
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
        Row(method: "address/openDoor", body: #"{"domophoneId":"1","doorId":0}"#, status: 204, php: "server/mobile/address/openDoor.php"),
        Row(method: "address/plogDays", body: #"{"flatId":"{flatId}"}"#, status: 200, fields: [("day", .string), ("events", .any)],
            php: "server/mobile/address/plogDays.php"),
        Row(method: "address/plog", body: #"{"flatId":"{flatId}","day":"{day}"}"#, status: 200,
            fields: [("date", .string), ("uuid", .string), ("previewType", .any), ("objectId", .string), ("objectType", .string),
                     ("objectMechanizma", .string), ("mechanizmaDescription", .string), ("houseId", .integer),
                     ("entranceId", .integer), ("event", .string), ("detailX", .object), ("preview", .string)],
            php: "server/mobile/address/plog.php"),
        Row(method: "address/access", body: #"{"flatId":"{flatId}","guestPhone":"79990001122"}"#, status: 204,
            php: "server/mobile/address/access.php"),
        Row(method: "cctv/all", body: "{}", status: 200,
            fields: [("id", .integer), ("name", .string), ("lat", .string), ("lon", .string), ("url", .string), ("token", .string)],
            php: "server/mobile/cctv/all.php"),
        Row(method: "cctv/all", body: #"{"houseId":"999"}"#, status: 204, php: "server/mobile/cctv/all.php (no camera)"),
        Row(method: "cctv/camMap", body: "{}", status: 200,
            fields: [("entranceId", .string), ("id", .string), ("url", .string), ("token", .string), ("frs", .string),
                     ("serverType", .string), ("hasSound", .bool)],
            php: "server/mobile/cctv/camMap.php"),
        // The DVR's recording_status.json, passed through: [{stream, ranges: [{from, duration}]}].
        Row(method: "cctv/ranges", body: #"{"cameraId":{cameraId}}"#, status: 200, fields: [("stream", .string), ("ranges", .array)],
            php: "server/mobile/cctv/ranges.php (Flussonic)"),
        Row(method: "cctv/ranges", body: #"{"cameraId":999}"#, status: 404, php: "server/mobile/cctv/ranges.php (no camera)"),
        Row(method: "ext/options", body: "{}", status: 200,
            fields: [("cityCams", .string), ("payments", .string), ("chat", .string), ("timeZone", .string), ("guestAccess", .string),
                     ("version", .integer), ("entrancesView", .string), ("addressVerificationTabLayoutVisible", .string),
                     ("addressVerificationTab1Visible", .string), ("addressVerificationTab2Visible", .string),
                     ("eventsTracking", .string), ("stories", .string), ("faceGroups", .string), ("faceClustering", .string)],
            php: "server/mobile/ext/options.php"),
        Row(method: "inbox/unreaded", body: "{}", status: 200, fields: [("count", .any), ("chat", .any)],
            php: "server/mobile/inbox/unreaded.php"),
        Row(method: "inbox/inbox", body: "{}", status: 200, fields: [("basePath", .string), ("code", .string)],
            php: "server/mobile/inbox/inbox.php"),
        Row(method: "frs/listFaces", body: #"{"flatId":"{flatId}"}"#, status: 204, php: "server/mobile/frs/listFaces.php (none yet)"),
        Row(method: "frs/like", body: "{}", status: 405, php: "server/mobile/frs/like.php (no event)"),
        // The face server finds no face in the call's picture: its message is `data`.
        Row(method: "frs/like", body: #"{"event":"{call}","comment":""}"#, status: 406, data: .string,
            php: "server/mobile/frs/like.php (registerFace without a face id)"),
        Row(method: "frs/like", body: #"{"event":"{face}","comment":""}"#, status: 200, php: "server/mobile/frs/like.php"),
        Row(method: "frs/listFaces", body: #"{"flatId":"{flatId}"}"#, status: 200, fields: [("faceId", .string), ("image", .string)],
            php: "server/mobile/frs/listFaces.php"),
        Row(method: "frs/disLike", body: #"{"flatId":"{flatId}","faceId":"17"}"#, status: 204, php: "server/mobile/frs/disLike.php"),
        Row(method: "frs/listFaces", body: #"{"flatId":"{flatId}"}"#, status: 204, php: "server/mobile/frs/listFaces.php (taken off)"),
        Row(method: "lprs/listNumbers", body: #"{"flatId":"{flatId}"}"#, status: 204, php: "server/mobile/lprs/listNumbers.php (none)"),
        Row(method: "lprs/addNumber", body: #"{"flatId":"{flatId}","number":"а123вс77"}"#, status: 204,
            php: "server/mobile/lprs/addNumber.php"),
        Row(method: "lprs/addNumber", body: #"{"flatId":"{flatId}","number":"12345"}"#, status: 422,
            php: "server/mobile/lprs/addNumber.php (isValidPlateNumber)"),
        Row(method: "lprs/listNumbers", body: #"{"flatId":"{flatId}"}"#, status: 200, data: .string,
            php: "server/mobile/lprs/listNumbers.php"),
        Row(method: "lprs/removeNumber", body: #"{"flatId":"{flatId}","number":"A123BC77"}"#, status: 204,
            php: "server/mobile/lprs/removeNumber.php"),
        Row(method: "lprs/listNumbers", body: #"{"flatId":"{flatId}"}"#, status: 204, php: "server/mobile/lprs/listNumbers.php (removed)"),
    ]

    /// A list's first item.
    static func first(_ value: JSONValue) -> JSONValue? {
        items(value).first
    }

    /// The field at dotted `path` of `item`, through the first item of a list on the way.
    static func field(_ path: String, of item: JSONValue?) -> JSONValue? {
        path.split(separator: ".").reduce(item) { value, name in (value.flatMap(first) ?? value)?[String(name)] }
    }

    static func items(_ value: JSONValue?) -> [JSONValue] {
        if case .array(let items) = value { items } else { [] }
    }

    /// A string or an integer as text (an id the PHP sends either way).
    static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .integer(let number): String(number)
        default: nil
        }
    }
}
