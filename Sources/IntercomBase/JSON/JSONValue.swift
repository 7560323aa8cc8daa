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

    /// A number JSON reads and writes as an integer: whole, and below 10^15 (exact as a Double).
    public static func whole(_ d: Double) -> Int? { d == d.rounded() && abs(d) < 1e15 ? Int(d) : nil }

    /// One line of compact JSON.
    public var encoded: String {
        // Bytes, made into a String once: appending to a String piece by piece was most of a
        // site `log --json`'s printing.
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .string(let s): Self.writeString(s, into: &out)
        case .number(let d):
            if d.isFinite {
                // Swift's shortest round-trip form: 7.7, not 7.700.
                out += (Self.whole(d).map(String.init) ?? String(describing: d)).utf8
            } else {
                out += "null".utf8
            }
        case .integer(let i): out += String(i).utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .null: out += "null".utf8
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in fields.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings (names, times, ids) are printable ASCII with nothing to escape: copied whole,
        // not scalar by scalar, which was a fifth of a site `log --json`'s time.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out += s.utf8
            out.append(UInt8(ascii: "\""))
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += #"\""#.utf8
            case "\\": out += #"\\"#.utf8
            case "\n": out += #"\n"#.utf8
            case "\r": out += #"\r"#.utf8
            case "\t": out += #"\t"#.utf8
            // C0, DEL, C1 and bidi controls as \uXXXX: a JSON line may end up on a terminal (`ctl events`,
            // `log --json`), where those characters act instead of showing.
            case _ where TerminalSafe.isControl(scalar):
                out += String(format: "\\u%04x", scalar.value).utf8
            default: UTF8.encode(scalar) { out.append($0) }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    public subscript(key: String) -> JSONValue? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.0 == key }?.1
    }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
}
