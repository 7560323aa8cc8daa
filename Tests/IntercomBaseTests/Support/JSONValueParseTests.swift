import Foundation
import IntercomBase
import IntercomTestSupport
import Testing

/// `JSONValue.parse` reads JSON itself (it used to go through Foundation's JSONSerialization): the
/// same values for the same texts, JSONSerialization's reading kept here as the judge, on texts
/// written out and on many made at random from JSON's own characters.
@Suite struct JSONValueParseTests {
    /// What `parse` gave when JSONSerialization read for it.
    static func judged(_ text: String) -> JSONValue? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else { return nil }
        return from(object)
    }

    static func from(_ any: Any) -> JSONValue {
        switch any {
        case let o as [String: Any]: return .object(o.keys.sorted().map { ($0, from(o[$0] as Any)) })
        case let a as [Any]: return .array(a.map(from))
        case let s as String: return .string(s)
        case let n as NSNumber:
            if String(cString: n.objCType) == "c" { return .bool(n.boolValue) }
            let d = n.doubleValue
            return d == d.rounded() && abs(d) < 1e15 ? .integer(Int(d)) : .number(d)
        default: return .null
        }
    }

    static let written = [
        #"{"id": 1, "ok": true, "door": "main", "kind": "door", "time": "2026-12-08T00:01:38.611Z", "panel": null}"#,
        #"{"b":1,"a":[1,2.5,-3,1e3,1E-2,0.1,-0,12345678901234567890,999999999999999,1000000000000000],"c":{}}"#,
        #"  [ ]  "#, "[]", "{}", "0", "-1", "1.0", "\"x\"", "true", "false", "null", #""é ✓ 😀""#,
        #""\u00e9\ud83d\ude00\n\t\"\\\/\b\f\r""#, #""\u0000""#, #"{"a":1,"a":2}"#, #"[[[[[[]]]]]]"#,
        #"{"who":{"name":"Анна","flat":"12"},"sensor":["a","b"],"duration_s":12.3}"#,
        // Not JSON (JSONSerialization let a comma end a list and a byte-order mark start the text).
        "", " ", "{", "}", "[1,]", #"{"a":1,}"#, "01", "1.", ".5", "-", "1e", "+1", "tru", "nul", "[1 2]", #"{"a" 1}"#,
        #"{1:2}"#, "\"a", "\"\u{01}\"", #""\x""#, #""\u12""#, #""\ud83d""#, #""\ude00""#, #""\ud83dx""#, "1 2", "[1]x",
        "NaN", "Infinity", "1e400", "\u{FEFF}1", "[,]", "{,}", "[1,,2]", "[,1]", "[1, ]", #"{"a":1 , }"#, "[1,]]",
        "\u{FEFF}", " \u{FEFF}1", "[\u{FEFF}1]",
    ]

    @Test func writtenTextsReadAsJSONSerializationReadThem() {
        for text in Self.written {
            #expect(JSONValue.parse(text) == Self.judged(text), "\(text)")
        }
    }

    /// `encoded` writes what it always wrote: printable ASCII as is, the rest escaped or as UTF-8.
    @Test func encodedIsTheSameLineAsBefore() {
        let value = JSONValue.object([("a", .string("plain 12:00 /x")), ("b", .string("q\"b\\n\nr\rt\t\u{01}\u{7F}\u{85}\u{202E}é😀")),
                                      ("n", .number(7.7)), ("w", .number(3)), ("i", .integer(-2)), ("f", .number(.infinity)),
                                      ("l", .array([.bool(true), .bool(false), .null, .object([])]))])
        #expect(value.encoded == #"{"a":"plain 12:00 /x","b":"q\"b\\n\nr\rt\t\u0001\u007f\u0085\u202eé😀","n":7.7,"w":3,"i":-2,"#
            + #""f":null,"l":[true,false,null,{}]}"#)
    }

    @Test func nestingDeeperThanJSONSerializationAllowsIsRefusedNotRecursed() {
        #expect(JSONValue.parse(String(repeating: "[", count: 100) + String(repeating: "]", count: 100)) != nil)
        #expect(JSONValue.parse(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)) == nil)
    }

    @Test func textsMadeAtRandomReadTheSame() {
        var random = SeededRandom(seed: 40)
        let pieces = ["{", "}", "[", "]", ",", ",]", ",}", ":", " ", "\"", "\"a\"", "\"k\"", "1", "-", "0", ".", "5", "e", "+", "true",
                      "null", "\\", "\\u", "00e9", "d83d", "\\n", "é", "x"]
        var agreed = 0
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 1...12, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
            let ours = JSONValue.parse(text)
            #expect(ours == Self.judged(text), "\(text)")
            if ours != nil { agreed += 1 }
        }
        #expect(agreed > 100, "too few of the random texts were JSON to compare values: \(agreed)")
    }
}
