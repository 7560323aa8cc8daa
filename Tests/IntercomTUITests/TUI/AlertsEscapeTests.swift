import IntercomBase
import Testing
@testable import IntercomTUI

/// The terminal's notification escape: which terminals get which, when a ring is posted (focus
/// and `[notify] terminal`), and that a caller's text cannot end the OSC early.
@Suite struct AlertsEscapeTests {
    @Test func notificationTitleIsEscaped() {
        for escape in [NotificationEscape.kitty, .osc777, .osc9] {
            var written: [String] = []
            let alerts = Alerts(bell: false, mode: .on, escape: escape)
            alerts.notifyIncoming("sip:x@h \u{07}\u{1B}]0;pwned\u{1B}\\\u{9B}2J", tag: "t1", { written.append($0) })
            #expect(!written.isEmpty)
            for sequence in written {
                // Only our own OSC opener and ST remain: ESC ] at the start, ESC \ at the end.
                let inner = sequence.unicodeScalars.dropFirst(2).dropLast(2)
                #expect(!inner.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(sequence.debugDescription)")
            }
            #expect(written.contains { $0.contains("\\u{1B}]0") }, "\(written)")
        }
    }

    /// A right-to-left override in a caller's name would turn the notification's words around.
    @Test func notificationTitleSpellsBidiControls() {
        var written: [String] = []
        Alerts(bell: false, mode: .on, escape: .osc777).notifyIncoming("Door \u{202E}nepo\u{2066}", tag: "t1", { written.append($0) })
        #expect(written.count == 1 && written[0].contains("Door \\u{202E}nepo\\u{2066} is calling"), "\(written)")
        #expect(!written.joined().unicodeScalars.contains { TerminalSafe.isBidiControl($0) })
    }

    @Test func eachTerminalGetsItsEscape() {
        func escape(_ environment: [String: String]) -> NotificationEscape? {
            TerminalCapabilities(environment: environment).notificationEscape.escape
        }
        #expect(escape(["TERM": "xterm-kitty"]) == .kitty)
        #expect(escape(["TERM": "xterm-256color", "KITTY_WINDOW_ID": "3"]) == .kitty)
        #expect(escape(["TERM": "foot"]) == .osc777)
        #expect(escape(["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"]) == .osc777)
        #expect(escape(["TERM": "xterm-256color", "KONSOLE_VERSION": "230804"]) == .osc777)
        #expect(escape(["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"]) == .osc9)
        #expect(escape(["TERM": "xterm-ghostty"]) == .osc9)
        #expect(escape(["TERM": "xterm-256color", "WT_SESSION": "x"]) == .osc9)
        #expect(escape(["TERM": "xterm-256color"]) == nil)
        // tmux swallows them: the bell gets through instead.
        #expect(escape(["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0", "KITTY_WINDOW_ID": "3"]) == nil)
        #expect(TerminalCapabilities(environment: ["TERM": "xterm-kitty"], isTTY: false).notificationEscape.escape == nil)
    }

    @Test func postedWhenAwayOrAlways() {
        var alerts = Alerts(bell: true, mode: .auto, escape: .kitty)
        #expect(!alerts.posts)
        alerts.focused = false
        #expect(alerts.posts)
        #expect(Alerts(bell: true, mode: .on, escape: .osc9).posts)
        #expect(!Alerts(bell: true, mode: .on, escape: nil).posts)
        var off = Alerts(bell: true, mode: .off, escape: .kitty)
        off.focused = false
        #expect(!off.posts)
        var written: [String] = []
        Alerts(bell: false, mode: .auto, escape: .kitty).close(tag: "t1") { written.append($0) }
        #expect(written == ["\u{1B}]99;i=t1:p=close;\u{1B}\\"])
    }

    @Test func focusReportsAreNoKeys() {
        var filter = EscapeFilter()
        let out = Array("\u{1B}[O".utf8).map { filter.isKey(Int32($0)) }
        #expect(out == [false, false, false])
        #expect(filter.takeFocus() == false)
        #expect(filter.takeFocus() == nil)
        _ = Array("\u{1B}[I".utf8).map { filter.isKey(Int32($0)) }
        #expect(filter.takeFocus() == true)
        // A CSI with parameters ending in I or O is something else.
        _ = Array("\u{1B}[1;5O".utf8).map { filter.isKey(Int32($0)) }
        #expect(filter.takeFocus() == nil)
        let plain = filter.isKey(Int32(UInt8(ascii: "O")))
        #expect(plain)
    }
}
