import Foundation

/// What a hostile panel, operator or server may send, for the tests of the one way out
/// (`TerminalSafe`): each sample as raw bytes, with ways to put it in a JSON answer or a
/// `key=value` body, and the check every byte written to a terminal or a log must pass.
package enum HostileText {
    /// (what it is, its bytes). Invalid UTF-8 is kept as bytes: Swift decodes it to U+FFFD.
    package static let samples: [(name: String, bytes: [UInt8])] = [
        ("CSI clear screen", Array("a\u{1B}[2J\u{1B}[Hb".utf8)),
        ("OSC title ended by BEL", Array("\u{1B}]0;pwned\u{07}title".utf8)),
        ("OSC 8 link ended by ST", Array("\u{1B}]8;;http://evil.example\u{1B}\\click\u{1B}]8;;\u{1B}\\".utf8)),
        ("DCS request status string", Array("\u{1B}P$q\"p\u{1B}\\dcs".utf8)),
        ("C1 CSI U+009B", Array("c1\u{9B}31mred".utf8)),
        ("every C1, U+0080 to U+009F", Array(String(String.UnicodeScalarView((0x80...0x9F).compactMap(Unicode.Scalar.init))).utf8)),
        ("BEL", Array("ding\u{07}\u{07}".utf8)),
        ("DEL and NUL", Array("x\u{7F}\u{00}y".utf8)),
        ("bidi override, isolate and marks", Array("Door \u{202E}nepo\u{2067}\u{200F}\u{061C}x\u{202C}".utf8)),
        ("invalid UTF-8: lone C1 bytes, overlong, surrogate", [0x61, 0x9B, 0x32, 0x4A, 0xC0, 0x9B, 0xED, 0xA0, 0x80, 0xFF, 0xFE, 0x62]),
    ]

    /// Every sample joined, for one field that carries them all.
    package static var all: [UInt8] { samples.flatMap { $0.bytes + [0x20] } }

    /// The bytes as a JSON string literal, quotes included: C0 as `\u00XX` (raw C0 is not JSON),
    /// everything else (C1, DEL, invalid UTF-8) raw, as a hostile server may send it.
    package static func jsonString(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x22]
        for byte in bytes {
            switch byte {
            case 0x22, 0x5C: out += [0x5C, byte]
            case 0..<0x20: out += Array(String(format: "\\u%04x", byte).utf8)
            default: out.append(byte)
            }
        }
        return out + [0x22]
    }

    /// Why `bytes` (what a command wrote) is not safe for a terminal, or nil when it is: valid
    /// UTF-8 with no C0 control but newline and tab, no DEL, no C1 code point and no bidi control.
    package static func problem(_ bytes: [UInt8]) -> String? {
        if let bad = bytes.first(where: { ($0 < 0x20 && $0 != 0x0A && $0 != 0x09) || $0 == 0x7F }) {
            return "control byte 0x\(String(bad, radix: 16))"
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { return "not UTF-8" }
        if let c1 = text.unicodeScalars.first(where: { (0x80...0x9F).contains($0.value) }) {
            return "C1 U+\(String(c1.value, radix: 16))"
        }
        let bidi: Set<UInt32> = Set([0x061C, 0x200E, 0x200F] + Array(0x202A...0x202E) + Array(0x2066...0x2069))
        if let control = text.unicodeScalars.first(where: { bidi.contains($0.value) }) {
            return "bidi control U+\(String(control.value, radix: 16))"
        }
        return nil
    }

    /// `problem` for a line that must also be one line (a log line, a field).
    package static func lineProblem(_ bytes: [UInt8]) -> String? {
        bytes.contains(0x0A) || bytes.contains(0x09) ? "a newline or tab inside one line" : problem(bytes)
    }
}
