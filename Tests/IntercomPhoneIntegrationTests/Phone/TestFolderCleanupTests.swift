import Foundation
import IntercomPhone
import IntercomPhoneTestSupport
import IntercomTestSupport
import Testing

/// A test's phone leaves no folder behind (runs used to leave 60+ `intercom-100001-…` folders a day):
/// the folder scope `.removesTestFolders` opens removes it, awaited, when the test ends.
@Suite(.removesTestFolders) struct TestFolderCleanupTests {
    /// Entries `intercom-TAG-*` in the temp folder: a tag no other test uses, so parallel tests do not count.
    private static func count(_ tag: String) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("intercom-\(tag)-") }.count
    }

    @Test("a phone's data folder and its caller tone are gone when the test's scope ends")
    func phoneFoldersGo() async throws {
        #expect(TestFolderScope.current != nil, "the suite's trait opened a scope")
        let before = try Self.count("foldercheck")
        let made: [String] = try await TestFolderScope.run {
            let (phone, _) = try await PhoneTestSupport.phone("foldercheck")
            await phone.stop()
            #expect(try Self.count("foldercheck") == before + 1)
            return TestFolderScope.current?.folders ?? []
        }
        #expect(made.count == 2, "the phone's folder and the caller tone's: \(made)")
        #expect(made.allSatisfy { !FileManager.default.fileExists(atPath: $0) }, "left: \(made)")
        #expect(try Self.count("foldercheck") == before)
    }
}
