@testable import IntercomTUI
import Testing

/// Text that does not fit is shortened with "…" (at a word's end when one is near) or wrapped at
/// spaces: never cut silently mid-word.
@Suite struct TextFitTests {
    @Test func ellipsize() {
        #expect(TextFit.ellipsize("entrance: hung up (0:12)", 30) == "entrance: hung up (0:12)")
        #expect(TextFit.ellipsize("entrance: hung up (0:12)", 20) == "entrance: hung up…")
        #expect(TextFit.ellipsize("door main of porch opened (http)", 20) == "door main of porch…")
        #expect(TextFit.ellipsize("panel-with-a-very-long-name", 10) == "panel-wit…", "one long word: cut, and marked")
        #expect(TextFit.ellipsize("abc", 1) == "…" && TextFit.ellipsize("abc", 0) == "")
        #expect(TextFit.pad("gate", 6) == "gate  " && TextFit.pad("entrance", 6) == "entra…")
    }

    @Test func aMarkIsKeptWholeAndTheTextBeforeItShortened() {
        #expect(TextFit.ellipsize("entrance answered", 30, keeping: " [clip 7]") == "entrance answered [clip 7]")
        #expect(TextFit.ellipsize("entrance answered (key)", 20, keeping: " [clip 7]") == "entrance… [clip 7]")
        // Too narrow for the mark and a few characters of text: the two are shortened as one.
        #expect(TextFit.ellipsize("entrance answered", 10, keeping: " [clip 7]") == "entrance…")
    }

    @Test func wrap() {
        #expect(TextFit.wrap("open the main / 2nd door: the call's, else the chosen one", 20)
                == ["open the main / 2nd", "door: the call's,", "else the chosen one"])
        #expect(TextFit.wrap("short", 20) == ["short"])
        #expect(TextFit.wrap("a verylongwordthatdoesnotfit", 10) == ["a", "verylongw…"])
        #expect(TextFit.wrap("", 10) == [""])
    }
}
