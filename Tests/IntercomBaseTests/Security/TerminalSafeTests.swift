import Foundation
import Testing
import IntercomBase
import IntercomHTTP
import IntercomTestSupport

/// Text from panels and servers never reaches a terminal with its control characters, and JSON
/// lines (which scripts and people read on terminals too) carry DEL and C1 escaped.
@Suite("security: terminal-safe text") struct TerminalSafeTests {
    @Test("C0, DEL and C1 are spelt \\u{XX}; tabs and newlines too; other text passes unchanged")
    func escapesEveryControl() {
        #expect(TerminalSafe.escape("plain Türklingel 門") == "plain Türklingel 門")
        #expect(TerminalSafe.escape("a\u{1B}]0;pwned\u{07}b") == "a\\u{1B}]0;pwned\\u{07}b")
        #expect(TerminalSafe.escape("x\u{7F}y\u{9B}2Jz\u{80}") == "x\\u{7F}y\\u{9B}2Jz\\u{80}")
        #expect(TerminalSafe.escape("one\ntwo\tthree\r\0") == "one\\u{0A}two\\u{09}three\\u{0D}\\u{00}")
        #expect(TerminalSafe.escape("\u{A0}é") == "\u{A0}é", "U+00A0 and up are printable")
        for value in UInt32(0)...0xFF {
            let scalar = Unicode.Scalar(value)!
            let escaped = TerminalSafe.escape(String(Character(scalar)))
            #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                    "U+\(String(value, radix: 16)) came through as \(escaped.debugDescription)")
        }
    }

    @Test("the bidirectional controls are spelt too: a caller's name cannot turn the line around")
    func escapesBidiControls() {
        let bidi: [UInt32] = [0x061C, 0x200E, 0x200F] + Array(0x202A...0x202E) + Array(0x2066...0x2069)
        for value in bidi {
            let scalar = Unicode.Scalar(value)!
            let hex = String(value, radix: 16, uppercase: true)
            #expect(TerminalSafe.escape("a\(scalar)b") == "a\\u{\(hex)}b", "U+\(hex)")
            #expect(TerminalSafe.lines("a\n\(scalar)") == "a\n\\u{\(hex)}", "U+\(hex)")
        }
        // The override that makes "evil\u{202E}txt.exe" read "evilexe.txt", and an isolate left open.
        #expect(TerminalSafe.escape("Door \u{202E}nepo\u{2066}") == "Door \\u{202E}nepo\\u{2066}")
        // Their neighbours are ordinary text: the zero-width joiner, Hebrew, Arabic letters.
        #expect(TerminalSafe.escape("\u{200D}שלום مرحبا\u{2070}") == "\u{200D}שלום مرحبا\u{2070}")
        let line = JSONValue.string("a\u{202E}b").encoded
        #expect(line == "\"a\\u202eb\"", "\(line)")
        #expect(JSONValue.parse("[\(line)]") == .array([.string("a\u{202E}b")]))
    }

    @Test("the JSON encoder escapes DEL and C1 as \\u00XX, and the result still parses back")
    func jsonEscapesDELAndC1() throws {
        let hostile = "door\u{7F}\u{9B}31m\u{85}\u{1B}[2J"
        let line = JSONValue.string(hostile).encoded
        #expect(line == "\"door\\u007f\\u009b31m\\u0085\\u001b[2J\"", "\(line)")
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(JSONValue.parse("[\(line)]") == .array([.string(hostile)]))
    }

    @Test("intercom log prints a panel's hostile door error and caller escaped")
    func logCommandEscapes() async throws {
        let directory = try TestDirectory(prefix: "intercom-termsafe")
        let journalPath = try directory.subdirectory("journal").path
        let journal = try Journal(directory: journalPath)
        let now = Date()
        let row = try journal.callStarted(panel: "entrance", call: CallID("c1"),
                                          caller: "sip:100001@x \u{1B}]2;owned\u{07}", at: now.addingTimeInterval(-5))
        try journal.callEnded(row, outcome: "missed", duration: 1, at: now.addingTimeInterval(-4))
        try journal.doorOpened(panel: "entrance", call: nil, door: "main", method: "http", by: "ctl", ok: false,
                               error: "HTTP 500 \u{9B}2J\u{1B}[31mdenied\u{7F}", at: now.addingTimeInterval(-2))
        let config = try IntercomBinary.writeConfig("[journal]\npath = \(journalPath)\n", in: directory)
        let result = try await IntercomBinary.run(["log", "--config", config.path], in: directory)
        #expect(result.status == 0, "\(result)")
        let bytes = Array(result.stdout.utf8)
        #expect(!bytes.contains(0x1B) && !bytes.contains(0x07) && !bytes.contains(0x7F), "\(result.stdout.debugDescription)")
        #expect(!result.stdout.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }, "\(result.stdout.debugDescription)")
        #expect(result.stdout.contains("\\u{1B}]2;owned\\u{07}") && result.stdout.contains("\\u{9B}2J\\u{1B}[31mdenied\\u{7F}"),
                "\(result.stdout)")
        let json = try await IntercomBinary.run(["log", "--json", "--config", config.path], in: directory)
        #expect(json.status == 0 && json.stdout.contains("\\u009b2J\\u001b[31mdenied\\u007f"), "\(json)")
    }
}
