import Foundation
import Testing
import IntercomBase
import IntercomTestSupport
@testable import IntercomCLI
import IntercomOperator

/// Every formatting function that outside text goes through on its way to a terminal or a log,
/// fed each hostile sample (`HostileText`): what comes out holds no control byte, and a field
/// stays on its line. The commands themselves are run in `OutsideTextCommandTests`.
@Suite("security: outside text, formatting")
struct OutsideTextFormattingTests {
    /// (path, whether its output is one line, the function).
    static let paths: [(name: String, oneLine: Bool, format: @Sendable (String) -> String)] = [
        ("TerminalSafe.escape (a field)", true, { TerminalSafe.escape($0) }),
        ("TerminalSafe.lines (Console.out/error, prompts)", false, { TerminalSafe.lines("header\n  \($0)\n") }),
        ("Console.fail's line", true, { "intercom: " + TerminalSafe.escape("door refused: \($0)") }),
        ("Logger, on a terminal", true, { Logger(minimumLevel: .debug, environment: [:]).line(.warning, "mqtt: payload '\($0)'") }),
        ("Logger, under journald", true, {
            Logger(minimumLevel: .debug, environment: ["JOURNAL_STREAM": "8:1"]).line(.error, "ffmpeg: \($0)")
        }),
        ("TextTable (doors, cameras, log, settings)", false, { TextTable.render([["ID", "NAME"], ["home:1:0", $0]]) }),
        ("an operator's error text", true, {
            TerminalSafe.escape(OperatorError(operatorName: "home", kind: .forbidden, serverText: $0).description)
        }),
        ("JSON line (--json, events, ctl)", true, { JSONValue.object([("name", .string($0))]).encoded }),
    ]

    @Test("no control byte comes out of any formatting path", arguments: paths.indices)
    func pathWritesNoControls(_ index: Int) {
        let path = Self.paths[index]
        for sample in HostileText.samples {
            var out = Array(path.format(String(decoding: sample.bytes, as: UTF8.self)).utf8)
            if path.oneLine, out.last == 0x0A { out.removeLast() }
            let problem = path.oneLine ? HostileText.lineProblem(out) : HostileText.problem(out)
            #expect(problem == nil, "\(path.name) let \(sample.name) through: \(problem ?? "") in \(String(decoding: out, as: UTF8.self).debugDescription)")
        }
    }

    @Test("the escape shows what was sent instead of dropping it")
    func escapedTextStaysReadable() {
        let text = String(decoding: HostileText.samples[1].bytes, as: UTF8.self)
        #expect(TerminalSafe.escape(text) == "\\u{1B}]0;pwned\\u{07}title")
        #expect(TerminalSafe.lines("a\n\tb\u{9B}c\r") == "a\n\tb\\u{9B}c\\u{0D}", "lines keeps newline and tab only")
        let invalid = String(decoding: HostileText.samples[HostileText.samples.count - 1].bytes, as: UTF8.self)
        #expect(TerminalSafe.escape(invalid).contains("\u{FFFD}"), "invalid UTF-8 shows as U+FFFD")
        #expect(Logger(minimumLevel: .debug, environment: [:]).line(.notice, "one\ntwo") == "notice: one\\u{0A}two\n")
    }
}
