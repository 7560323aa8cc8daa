import Foundation

/// What a face asks of an operator's flat settings (`intercom ctl settings`, MQTT's switches, the
/// screens; `settings` on the control socket): the flat's settings as the operator has them, after
/// applying `changes` (each `KEY=VALUE` as `intercom settings` takes it) when there are any. The
/// engine checks the changes (IntercomOperator's FlatSettingChange): this model knows no key.
public struct FlatSettingsRequest: Sendable, Equatable {
    public var operatorName: String
    /// The flat's id or number; nil = the login's only flat.
    public var flat: String?
    /// `KEY=VALUE` texts, e.g. `white_rabbit=5`, in the order given.
    public var changes: [String]

    /// More than this many changes in one request is not a person's (the keys are few).
    public static let maxChanges = 16

    public init(operatorName: String, flat: String? = nil, changes: [String] = []) {
        self.operatorName = operatorName
        self.flat = flat
        self.changes = changes
    }

    /// The request's fields on the control socket.
    public var fields: [(String, JSONValue)] {
        [("operator", .string(operatorName)), ("flat", .optional(flat)), ("set", .array(changes.map { .string($0) }))]
    }

    /// The fields read back; the error says in one line what is wrong.
    public static func parse(_ json: JSONValue) -> Result<FlatSettingsRequest, FieldError> {
        guard let name = json["operator"]?.stringValue, !name.isEmpty, name.count <= 64 else {
            return .failure(FieldError("settings needs \"operator\": an [operator NAME] of the config, e.g. \"yard\""))
        }
        var flat: String?
        if let raw = json["flat"], raw != .null {
            guard let text = raw.stringValue, !text.isEmpty, text.count <= 64 else {
                return .failure(FieldError("\"flat\" must be a flat's id or number, or null for the login's only flat"))
            }
            flat = text
        }
        var changes: [String] = []
        if let raw = json["set"], raw != .null {
            guard case .array(let list) = raw, list.count <= maxChanges,
                  let texts = Optional(list.compactMap(\.stringValue)), texts.count == list.count,
                  texts.allSatisfy({ $0.contains("=") && $0.count <= 100 }) else {
                return .failure(FieldError("\"set\" must be a list of at most \(maxChanges) \"KEY=VALUE\" texts, e.g. [\"white_rabbit=5\"]"))
            }
            changes = texts
        }
        return .success(FlatSettingsRequest(operatorName: name, flat: flat, changes: changes))
    }

    /// A field that cannot be read: the message says which and what it takes.
    public struct FieldError: Error, Sendable, Equatable {
        public var message: String
        init(_ message: String) { self.message = message }
    }
}
