import IntercomBase

extension JSONValue {
    /// A request field as text whether the client sent a string or a number (PHP reads both).
    var loose: String? {
        switch self {
        case .string(let s): s
        case .integer(let i): String(i)
        case .number(let d): Self.whole(d).map(String.init) ?? String(d)
        case .bool(let b): b ? "1" : ""
        default: nil
        }
    }

    static func flag(_ on: Bool) -> JSONValue { .string(on ? "t" : "f") }
}
