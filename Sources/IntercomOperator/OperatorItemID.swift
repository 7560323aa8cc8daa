/// The ids `intercom doors` and `intercom cameras` give operator entries, which `open`, `watch`
/// and `snapshot` take back: `OPERATOR:DOMOPHONE:DOOR` for a door (`home:1:0`),
/// `OPERATOR:cam:ID` for a camera (`home:cam:1`) and `OPERATOR:entrance:ID` for the camera of one
/// entrance in the operator's camera map (`home:entrance:7`, for a panel that serves several).
/// Built from the operator's own ids, so they stay the same across runs and logins for as long as
/// the operator keeps its numbering.
public enum OperatorItemID {
    public static func door(operator name: String, domophoneId: String, doorId: Int) -> String {
        "\(name):\(domophoneId):\(doorId)"
    }

    public static func camera(operator name: String, cameraId: String) -> String {
        "\(name):cam:\(cameraId)"
    }

    public static func entrance(operator name: String, entranceId: String) -> String {
        "\(name):entrance:\(entranceId)"
    }

    /// (operator, domophoneId, doorId) of a door id, or nil when `text` is not one.
    public static func parseDoor(_ text: String) -> (operatorName: String, domophoneId: String, doorId: Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, let doorId = Int(parts[parts.count - 1]), doorId >= 0 else { return nil }
        let domophone = String(parts[parts.count - 2])
        let name = parts.dropLast(2).joined(separator: ":")
        guard !domophone.isEmpty, domophone != "cam", domophone != "entrance", !name.isEmpty else { return nil }
        return (name, domophone, doorId)
    }

    /// (operator, entranceId) of an entrance camera id, or nil.
    public static func parseEntrance(_ text: String) -> (operatorName: String, entranceId: String)? {
        parseTagged(text, tag: "entrance").map { ($0.operatorName, $0.id) }
    }

    /// (operator, cameraId) of a camera id, or nil.
    public static func parseCamera(_ text: String) -> (operatorName: String, cameraId: String)? {
        parseTagged(text, tag: "cam").map { ($0.operatorName, $0.id) }
    }

    /// `OPERATOR:TAG:ID` (the operator's name may hold colons): its operator and id, or nil.
    private static func parseTagged(_ text: String, tag: String) -> (operatorName: String, id: String)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[parts.count - 2] == tag, !parts[parts.count - 1].isEmpty else { return nil }
        let name = parts.dropLast(2).joined(separator: ":")
        guard !name.isEmpty else { return nil }
        return (name, String(parts[parts.count - 1]))
    }
}
