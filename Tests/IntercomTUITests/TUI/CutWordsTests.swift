import IntercomTestSupport
import Testing

/// The tmux layout test's check itself: it finds the cuts issue 25 saw and passes what was
/// shortened on purpose, wrapped, or dropped whole.
@Suite struct CutWordsTests {
    let reference = """
         intercom — waiting for calls
         Recent                                      door main of porch opened (http)
           12:01 entrance: hung up (0:12)
         o open door…  Tab choose door  O 2nd door  g gate  l journal  q quit  ? help
        ▀▀▀▀▄▄▄ open the main / 2nd door: the call's, else the chosen one; asks which
        """

    @Test func findsWordsCutAtTheEdge() {
        #expect(CutWords.check("  12:01 entrance: hung up (0", reference: reference) == ["00:00 entrance: hung up (0"])
        #expect(CutWords.check(" door main of porch o", reference: reference) == ["door main of porch o"])
        #expect(CutWords.check(" o open door…  Tab choose door  O 2nd door  g gate  l journal  q quit  ? he",
                               reference: reference) == ["? he"])
    }

    @Test func passesShortenedWrappedAndDroppedText() {
        #expect(CutWords.check(" door main of porch…", reference: reference).isEmpty)
        #expect(CutWords.check("  12:07 entrance: hung up (0:13)", reference: reference).isEmpty, "clocks tick")
        #expect(CutWords.check(" o open door…  l journal  ? help", reference: reference).isEmpty)
        #expect(CutWords.check("▀▀ open the main / 2nd door:\n    the call's, else the chosen one;", reference: reference).isEmpty)
        #expect(CutWords.check(" ▄▄▄▄▄▀▀▀ ▀", reference: reference).isEmpty, "pictures are no words")
        #expect(CutWords.check(" intercom — waiting fo…", reference: reference).isEmpty)
        #expect(CutWords.check(" ntercom — waiting", reference: reference) == ["ntercom — waiting"], "cut at the start too")
    }
}
