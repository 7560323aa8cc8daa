import Foundation
import IntercomBase

/// SmartYard sends ids as strings or numbers and booleans as "t"/"f" (a few as JSON booleans),
/// and a method overridden by an operator may change which: readers accept every form.
extension JSONValue {
    /// A string, or a number written as one (`"1"` and `1` both read "1").
    var looseString: String? {
        switch self {
        case .string(let s): return s
        case .integer(let i): return String(i)
        case .number(let d): return Self.whole(d).map(String.init) ?? String(d)
        default: return nil
        }
    }

    /// An integer, or a string holding one.
    var looseInt: Int? {
        switch self {
        case .integer(let i): return i
        case .number(let d): return Self.whole(d)
        case .string(let s): return Int(s.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    /// "t"/"f", a JSON boolean, "1"/"0" or 1/0.
    var looseBool: Bool? {
        switch self {
        case .bool(let b): return b
        case .string(let s):
            switch s.lowercased() {
            case "t", "true", "1": return true
            case "f", "false", "0", "": return false
            default: return nil
            }
        case .integer(let i): return i != 0
        default: return nil
        }
    }

    var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }

    /// A string field's value, empty strings as nil.
    func text(_ key: String) -> String? {
        guard let value = self[key]?.looseString, !value.isEmpty else { return nil }
        return value
    }

    /// The value as a request field: an integer when the text is one (the apps send ids as numbers).
    static func id(_ text: String) -> JSONValue { Int(text).map { .integer($0) } ?? .string(text) }
}
