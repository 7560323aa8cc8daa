import Foundation

/// A JSON value whose object keys keep their order, so every event line starts with
/// `"event"` and `"time"` the way a person reading the stream expects.
public enum JSONValue: Sendable, Equatable {
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.integer(let x), .integer(let y)): x == y
        case (.bool(let x), .bool(let y)): x == y
        case (.null, .null): true
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    public static func optional(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }

    /// One line of compact JSON.
    public var encoded: String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .string(let s): Self.writeString(s, into: &out)
        case .number(let d):
            if d.isFinite {
                // Swift's shortest round-trip form: 7.7, not 7.700.
                out += d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(describing: d)
            } else {
                out += "null"
            }
        case .integer(let i): out += String(i)
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (i, (key, value)) in fields.enumerated() {
                if i > 0 { out += "," }
                Self.writeString(key, into: &out)
                out += ":"
                value.write(into: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // C0, DEL, C1 and bidi controls as \uXXXX: a JSON line may end up on a terminal (`ctl events`,
            // `log --json`), where those characters act instead of showing.
            case _ where TerminalSafe.isControl(scalar):
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// Parses one JSON text (a control-socket request) into a value; nil if it is not JSON.
    public static func parse(_ text: String) -> JSONValue? {
        guard let data = text.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        return from(object)
    }

    private static func from(_ any: Any) -> JSONValue {
        // Containers first: asking a Swift dictionary or array `as NSNumber` bridges it to an NSObject
        // (copying it) only to fail, once per nesting level; that was half of a site `log`'s time.
        switch any {
        case let o as [String: Any]: return .object(o.keys.sorted().map { ($0, from(o[$0] as Any)) })
        case let a as [Any]: return .array(a.map(from))
        case let s as String: return .string(s)
        case let n as NSNumber:
            // JSONSerialization gives booleans as NSNumber of ObjC type "c"; it never makes a char number.
            if String(cString: n.objCType) == "c" { return .bool(n.boolValue) }
            let d = n.doubleValue
            return d == d.rounded() && abs(d) < 1e15 ? .integer(Int(d)) : .number(d)
        default: return .null
        }
    }

    public subscript(key: String) -> JSONValue? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.0 == key }?.1
    }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
}
