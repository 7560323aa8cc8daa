import IntercomTUI
import Testing
import IntercomTestSupport

/// Late terminal answers must never act as keys: they hold O (second door) and digits (kiosk doors).
@Suite("Escape filter")
struct EscapeFilterTests {
    static func keys(_ text: String, filter: inout EscapeFilter, at now: ContinuousClock.Instant = .now) -> String {
        var out = ""
        for byte in text.utf8 where filter.isKey(Int32(byte), now: now) { out.unicodeScalars.append(Unicode.Scalar(byte)) }
        return out
    }

    @Test(arguments: [
        "\u{1B}_Gi=31;OK\u{1B}\\",                       // kitty graphics answer
        "\u{1B}[?62;c",                                  // kitty's DA1
        "\u{1B}[?63;1;2;4;6;9;15;16;22;28c",             // xterm vt340's DA1
        "\u{1B}[6;18;9t\u{1B}[4;396;639t\u{1B}[0n",      // cell and window size, DSR
        "\u{1B}]11;rgb:0000/0000/0000\u{07}",            // OSC 11 answer ended by BEL
        "\u{1B}P>|kitty(0.26.5)\u{1B}\\",                 // XTVERSION
        "\u{1B}OP",                                      // SS3 (F1)
    ])
    func terminalAnswersAreNoKeys(_ answer: String) {
        var filter = EscapeFilter()
        #expect(Self.keys(answer, filter: &filter) == "")
        // Keys right after still count.
        #expect(Self.keys("aO1", filter: &filter) == "aO1")
    }

    @Test func keysAroundAnswersSurvive() {
        var filter = EscapeFilter()
        #expect(Self.keys("a\u{1B}[?62;cO\u{1B}_Gi=31;OK\u{1B}\\h", filter: &filter) == "aOh")
    }

    /// A real Escape key, then a key a moment later: the key counts.
    @Test func loneEscapeExpires() {
        var filter = EscapeFilter()
        let start = ContinuousClock.now
        #expect(Self.keys("\u{1B}", filter: &filter, at: start) == "")
        #expect(Self.keys("a", filter: &filter, at: start.advanced(by: .milliseconds(200))) == "a")
    }

    /// The Esc key is told once nothing followed the ESC; a terminal's report never is.
    @Test func loneEscapeIsTakenOnce() {
        var filter = EscapeFilter()
        let start = ContinuousClock.now
        _ = Self.keys("\u{1B}", filter: &filter, at: start)
        let early = filter.takeLoneEscape(now: start.advanced(by: .milliseconds(10)))
        let alone = filter.takeLoneEscape(now: start.advanced(by: .milliseconds(80)))
        let again = filter.takeLoneEscape(now: start.advanced(by: .milliseconds(90)))
        #expect(!early, "too early to tell")
        #expect(alone && !again, "once")
        _ = Self.keys("\u{1B}[?62;4c", filter: &filter, at: start)
        let report = filter.takeLoneEscape(now: start.advanced(by: .milliseconds(200)))
        #expect(!report)
    }

    /// A sequence cut off for good does not swallow keys for ever.
    @Test func unfinishedSequenceGivesUp() {
        var filter = EscapeFilter()
        let start = ContinuousClock.now
        #expect(Self.keys("\u{1B}_Gi=31;O", filter: &filter, at: start) == "")
        #expect(Self.keys("o", filter: &filter, at: start.advanced(by: .milliseconds(300))) == "")
        #expect(Self.keys("o", filter: &filter, at: start.advanced(by: .seconds(2))) == "o")
    }

    /// ncurses' own codes (KEY_RESIZE, arrows) are keys even in the middle of a sequence.
    @Test func cursesKeyCodesPass() {
        var filter = EscapeFilter()
        _ = filter.isKey(0x1B)
        let resize = filter.isKey(410)
        #expect(resize)
    }

    /// The bytes a screen's loop reads next, and the waits it was asked for.
    final class Input {
        var bytes: [Int32]
        var waits: [Int] = []
        init(_ text: String) { bytes = text.utf8.map { Int32($0) } }
        func read(_ wait: Int) -> Int32? {
            waits.append(wait)
            return bytes.isEmpty ? nil : bytes.removeFirst()
        }
    }

    /// A focus report already in the input is read whole in the turn that read its ESC, however long that
    /// turn then takes: judged on the next turn, a slow one split it into `[` and `O` (the second door).
    @Test func aSequenceIsReadWholeInTheTurnThatStartedIt() {
        var filter = EscapeFilter()
        let input = Input("[O")
        let first = filter.isKey(0x1B)
        let key = filter.finishSequence(input.read)
        let focused = filter.takeFocus()
        let later = Self.keys("O", filter: &filter, at: ContinuousClock.now.advanced(by: .seconds(1)))
        #expect(!first && key == nil)
        #expect(focused == false, "a focus-out report")
        #expect(input.bytes.isEmpty && input.waits == [EscapeFilter.loneEscapeMilliseconds + 10, 0])
        #expect(later == "O", "the next O is a key again")
    }

    /// The Esc key itself: nothing follows within the wait, and the same turn tells it.
    @Test func aLoneEscapeIsToldAfterOneWait() {
        var filter = EscapeFilter()
        let start = ContinuousClock.now
        let input = Input("")
        _ = filter.isKey(0x1B, now: start)
        let key = filter.finishSequence(input.read)
        let alone = filter.takeLoneEscape(now: start.advanced(by: .milliseconds(EscapeFilter.loneEscapeMilliseconds + 10)))
        #expect(key == nil && alone)
        #expect(input.waits == [EscapeFilter.loneEscapeMilliseconds + 10])
    }

    /// A long answer whose end has not arrived yet: what is there is taken without waiting, the rest
    /// comes on later turns and is no key either.
    @Test func aLongAnswerIsTakenAsItComes() {
        var filter = EscapeFilter()
        let input = Input("_Gi=31;")
        _ = filter.isKey(0x1B)
        let key = filter.finishSequence(input.read)
        #expect(key == nil && input.waits.last == 0)
        #expect(Self.keys("OK\u{1B}\\a", filter: &filter) == "a")
    }
}
