import Foundation
@testable import IntercomPostgres
import Testing

/// What the light `log` reads of a site's row by hand, checked against Foundation's reading.
@Suite struct SiteJournalReadTests {
    @Test func aUUIDIsReadAsFoundationReadsIt() {
        for _ in 0..<200 {
            let id = UUID()
            #expect(SiteJournalRead.uuid(id.uuidString.lowercased()) == id)
            #expect(SiteJournalRead.uuid(id.uuidString) == id)
        }
        for text in ["", "a35fe7f7-fe82-17b4-369a-0af4244d1fc", "a35fe7f7-fe82-17b4-369a-0af4244d1fcaa",
                     "a35fe7f7fe82-17b4-369a-0af4244d1fca0", "g35fe7f7-fe82-17b4-369a-0af4244d1fca",
                     "a35fe7f7-fe82-17b4-369a-0af4244d1fc-", "{a35fe7f7-fe82-17b4-369a-0af4244d1fc}"] {
            #expect(SiteJournalRead.uuid(text) == nil, "\(text)")
            #expect(UUID(uuidString: text) == nil, "\(text)")
        }
    }
}
