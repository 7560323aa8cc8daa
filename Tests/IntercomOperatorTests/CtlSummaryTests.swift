import Foundation
import Testing
import IntercomBase
@testable import IntercomCLI

/// What `intercom ctl` prints on a terminal (issue 23): status as tables with the screens
/// attached, a command as one sentence; outside text made terminal-safe. The pty and the pipe
/// through the real binary in DaemonCtlQueryTests.
@Suite struct CtlSummaryTests {
    static func json(_ text: String) throws -> JSONValue { try #require(JSONValue.parse(text)) }

    static let state = """
        {"calls":[{"call":"c1","panel":"porch","from":"sip:100001@10.0.0.5","state":"ringing","since":"2026-11-29T18:00:00Z"}],
         "registration":null,
         "panels":[{"name":"porch","calls":true,"guest_mode":false},{"name":"gate","calls":false,"guest_mode":true}],
         "listen":["udp:0.0.0.0:5060"],"doors":[],"operators":[{"name":"home","unread":3}],"muted":true,"speaker":false,
         "screens":[{"id":4,"name":"tui","pid":4242,"since":"2026-11-29T17:00:00Z"},{"id":7,"name":"kiosk","pid":null,"since":"2026-11-29T17:05:00Z"}]}
        """

    @Test func statusIsTablesOfPanelsCallsScreensAndOperators() throws {
        let text = CtlSummary.text(.status, data: try Self.json(Self.state))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "PANEL  NOW         CALLS                 GUEST MODE", "\(text)")
        #expect(lines.contains("porch  ringing c1  on                    off"), "\(text)")
        // Do-not-disturb is checked first: guest mode beside it lets nobody in (issue 38).
        #expect(lines.contains("gate   idle        off (do not disturb)  on, but do not disturb wins"), "\(text)")
        #expect(lines.contains { $0.hasPrefix("c1    porch  ringing  sip:100001@10.0.0.5") }, "\(text)")
        #expect(lines.contains { $0.hasPrefix("SCREEN  ID  PID   ATTACHED") }, "\(text)")
        #expect(lines.contains { $0.hasPrefix("tui     4   4242") } && lines.contains { $0.hasPrefix("kiosk   7   -") }, "\(text)")
        #expect(lines.contains("home      3"), "\(text)")
        #expect(lines.last == "microphone muted; call sound on playback", "\(text)")
        let idle = CtlSummary.text(.status, data: try Self.json(#"{"calls":[],"panels":[],"screens":[],"operators":[]}"#))
        #expect(idle.contains("no panel configured") && idle.contains("no calls") && idle.contains("no screens attached"), "\(idle)")
    }

    @Test func aCommandIsOneSentenceNamingItsPanel() throws {
        let before = try Self.json(Self.state)
        #expect(CtlSummary.text(.answer(nil), data: try Self.json(#"{"call":"c1"}"#), before: before) == "answered porch (c1)")
        #expect(CtlSummary.text(.hangup(nil), data: try Self.json(#"{"call":"c9"}"#), before: before) == "hung up c9")
        #expect(CtlSummary.text(.open(panel: nil, door: .main), data: try Self.json(
            #"{"panel":"porch","door":"main","attempts":[{"method":"http","ok":true}]}"#)) == "door main of porch opened (http)")
        #expect(CtlSummary.text(.open(panel: nil, door: .main), data: try Self.json(
            #"{"panel":"porch","door":"main","attempts":[{"method":"http","ok":false,"error":"timed out"},{"method":"dtmf","ok":true}]}"#))
            == "door main of porch opened (dtmf; http failed: timed out)")
        #expect(CtlSummary.text(.open(panel: "home:1:0", door: .main), data: try Self.json(
            #"{"operator":"home","door":"home:1:0","attempts":[{"method":"operator","ok":true}]}"#)).hasPrefix("open request for home:1:0 accepted by home"))
        #expect(CtlSummary.text(.mute(nil), data: try Self.json(#"{"muted":false}"#)) == "microphone on")
        #expect(CtlSummary.text(.setCalls(panel: nil, on: false), data: try Self.json(
            #"{"panel":"gate","calls":false,"guest_until":null}"#)) == "gate: calls off (do not disturb)")
        #expect(CtlSummary.text(.setGuest(panel: nil, until: nil), data: try Self.json(
            #"{"panel":"gate","calls":true,"guest_until":null}"#)) == "gate: guest mode off")
        let blocked = CtlSummary.text(.setGuest(panel: nil, until: nil), data: try Self.json(
            #"{"panel":"gate","calls":false,"guest_until":"2099-01-01T18:00:00Z"}"#))
        #expect(blocked.hasSuffix("but calls are off (do not disturb wins: guests' calls are declined; 'intercom ctl calls on' lets them in)"), "\(blocked)")
        #expect(CtlSummary.text(.handled(entry: 42, by: "x"), data: try Self.json(#"{"id":42,"handled_by":"ctl (ann)"}"#))
                == "missed call 42 handled by ctl (ann)")
        // Said only once someone answered (issue 38); a call back that reached nobody is an error line.
        #expect(CtlSummary.text(.callBack(entry: 42, by: "x"), data: try Self.json(#"{"call":"c4","panel":"porch","entry":{"id":42}}"#))
                == "porch answered the call back (c4); missed call 42 handled")
    }

    @Test func outsideTextCannotDrawOnTheTerminal() throws {
        let hostile = #"{"panel":"p\u001b[2J\nforged line","door":"main","attempts":[{"method":"http","ok":false,"error":"\u009b31m"}]}"#
        let sentence = CtlSummary.text(.open(panel: nil, door: .main), data: try Self.json(hostile))
        #expect(!sentence.unicodeScalars.contains(where: TerminalSafe.isControl), "\(sentence)")
        #expect(sentence.contains(#"p\u{1B}[2J\u{0A}forged line"#), "\(sentence)")
        let state = #"{"calls":[],"panels":[{"name":"a\u0007b","calls":true,"guest_mode":false}],"screens":[{"id":1,"name":"t\u001bui","pid":1}]}"#
        let table = CtlSummary.text(.status, data: try Self.json(state))
        #expect(!table.unicodeScalars.contains { TerminalSafe.isControl($0) && $0 != "\n" }, "\(table)")
    }

    @Test func doorsAndJournalAreCtlActions() throws {
        func request(_ words: [String], _ values: [String: String] = [:], _ flags: Set<String> = []) -> Result<ControlRequest, UsageError> {
            var args = ParsedArguments()
            args.positionals = words
            args.values = values
            args.flags = flags
            return CtlCommand.makeRequest(args)
        }
        #expect(try request(["doors"]).get().action == .command(.doors))
        #expect(try request(["journal"], ["--limit": "5", "--panel": "porch"], ["--unhandled"]).get().action
                == .command(.journal(JournalQuery(panel: "porch", limit: 5, unhandledOnly: true))))
        #expect(try request(["journal"]).get().action == .command(.journal(JournalQuery(limit: 20))))
        for (words, values) in [(["journal"], ["--limit": "0"]), (["journal"], ["--limit": "many"]), (["doors", "x"], [:])] {
            guard case .failure(let error) = request(words, values) else { Issue.record("accepted \(words) \(values)"); continue }
            #expect(error.message.contains("--limit") || error.message.contains("unexpected argument"), "\(error.message)")
        }
    }
}
