import Foundation
import Testing
@testable import IntercomBase

/// `[directory]`: transfer targets by name.
@Suite struct ConfigDirectoryTests {
    @Test func namesMapToSIPURIsAndAreFoundCaseInsensitively() throws {
        let loaded = try parseConfig("""
            [directory]
            Flat12 = sip:4012@pbx.example.org
            security = sip:200@pbx.example.org;transport=tcp
            """)
        #expect(loaded.config.directory.count == 2)
        #expect(loaded.config.directoryURI(named: "flat12") == "sip:4012@pbx.example.org")
        #expect(loaded.config.directoryURI(named: "SECURITY") == "sip:200@pbx.example.org;transport=tcp")
        #expect(loaded.config.directoryURI(named: "flat13") == nil)
    }

    @Test func aBadURIOrANameTwiceIsAnError() {
        let bad = configError("[directory]\nflat12 = 4012\n")
        #expect(bad?.line == 2 && bad?.key == "flat12", "\(String(describing: bad))")
        let twice = configError("[directory]\nflat12 = sip:1@a\nFLAT12 = sip:2@b\n")
        #expect(twice?.line == 3 && twice?.description.contains("twice") == true, "\(String(describing: twice))")
    }
}
