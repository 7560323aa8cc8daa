import IntercomTUI
import Testing
import IntercomTestSupport

/// A paste is text, never keys: "hello world, on my way" pasted during a call opened the door at
/// every `o`. The terminal marks it (`CSI 200 ~` … `CSI 201 ~`) once asked; the filter keeps it apart.
@Suite("Bracketed paste")
struct BracketedPasteTests {
    static func keys(_ text: String, filter: inout EscapeFilter, at now: ContinuousClock.Instant = .now) -> String {
        EscapeFilterTests.keys(text, filter: &filter, at: now)
    }

    @Test func aPasteIsTextNotKeys() {
        var filter = EscapeFilter()
        let keys = Self.keys("a\u{1B}[200~hello world, on my way\u{1B}[201~h", filter: &filter)
        #expect(keys == "ah", "no o of the paste is a key; the h typed after it is")
        #expect(filter.takePaste() == BracketedPaste(text: "hello world, on my way", byteCount: 22, cut: false))
        #expect(filter.takePaste() == nil, "taken once")
    }

    /// A long paste comes in many reads: each turn's `finishSequence` takes what is there, later
    /// turns the rest; nothing in between is a key.
    @Test func aPasteOverManyReads() {
        var filter = EscapeFilter()
        let first = EscapeFilterTests.Input("[200~hello wo")
        let escape = filter.isKey(0x1B)
        let key = filter.finishSequence(first.read)
        #expect(!escape && key == nil && first.bytes.isEmpty)
        #expect(filter.takePaste() == nil, "not ended yet")
        #expect(Self.keys("rld, on my", filter: &filter) == "")
        let last = EscapeFilterTests.Input(" way\u{1B}[201~")
        let x = filter.isKey(Int32(UInt8(ascii: "x")))
        let lastKey = filter.finishSequence(last.read)
        #expect(!x && lastKey == nil)
        #expect(filter.takePaste()?.text == "hello world, on myx way")
        #expect(Self.keys("o", filter: &filter) == "o", "keys again after the end mark")
    }

    /// What looks like the start of the end mark but is not stays in the text; so does ESC.
    @Test func partEndMarksAreText() {
        var filter = EscapeFilter()
        #expect(Self.keys("\u{1B}[200~a\u{1B}[20x\u{1B}\u{1B}[201b\u{1B}[201~", filter: &filter) == "")
        #expect(filter.takePaste()?.text == "a\u{1B}[20x\u{1B}\u{1B}[201b")
    }

    /// A pasted file is read whole, but only its first kilobyte is kept.
    @Test func aLongPasteIsBounded() {
        var filter = EscapeFilter()
        let long = String(repeating: "o", count: 5000)
        #expect(Self.keys("\u{1B}[200~\(long)\u{1B}[201~q", filter: &filter) == "q")
        let paste = filter.takePaste()
        #expect(paste?.text.utf8.count == BracketedPaste.keptBytes && paste?.byteCount == 5000)
    }

    /// One turn reads a bounded part of a paste that is all there: the screen keeps drawing.
    @Test func oneTurnReadsABoundedPart() {
        var filter = EscapeFilter()
        let input = EscapeFilterTests.Input("[200~" + String(repeating: "o", count: EscapeFilter.pasteBytesPerTurn + 100) + "\u{1B}[201~")
        _ = filter.isKey(0x1B)
        let firstTurn = filter.finishSequence(input.read)
        #expect(firstTurn == nil && !input.bytes.isEmpty, "the rest waits for the next turn")
        let secondTurn = filter.finishSequence(input.read)
        #expect(secondTurn == nil && input.bytes.isEmpty)
        #expect(filter.takePaste()?.byteCount == EscapeFilter.pasteBytesPerTurn + 100)
    }

    /// A paste whose end mark never comes: after a second without a byte what came is the paste,
    /// and keys count again.
    @Test func aPasteCutOffGivesUp() {
        var filter = EscapeFilter()
        let start = ContinuousClock.now
        #expect(Self.keys("\u{1B}[200~abc\u{1B}[2", filter: &filter, at: start) == "")
        #expect(filter.takePaste(now: start.advanced(by: .milliseconds(900))) == nil, "still within a second of the last byte")
        #expect(filter.takePaste(now: start.advanced(by: .seconds(2))) == BracketedPaste(text: "abc\u{1B}[2", byteCount: 6, cut: true))
        #expect(Self.keys("h", filter: &filter, at: start.advanced(by: .seconds(2))) == "h")
    }

    /// Other sequences ending in `~` (function keys, a stray end mark) are no paste.
    @Test func otherTildeSequencesAreNoPaste() {
        var filter = EscapeFilter()
        #expect(Self.keys("\u{1B}[2~\u{1B}[201~\u{1B}[2000~o", filter: &filter) == "o")
        #expect(filter.takePaste() == nil)
    }
}
