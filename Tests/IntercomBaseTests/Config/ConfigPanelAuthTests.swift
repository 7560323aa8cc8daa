import Foundation
import IntercomBase
import Testing
import IntercomTestSupport

/// `[panel] auth = digest | basic` (default digest; `PanelHTTPAuthTests` has what each does on the wire).
@Suite struct ConfigPanelAuthTests {
    @Test func digestIsTheDefault() throws {
        let panel = try #require(try parseConfig("[panel p]\nurl = http://10.1.2.3").config.panels.first)
        #expect(panel.auth == .digest)
    }

    @Test(arguments: [("digest", PanelAuth.digest), ("basic", .basic), ("Basic", .basic), ("DIGEST", .digest)])
    func bothSpellingsDecode(text: String, auth: PanelAuth) throws {
        let loaded = try parseConfig("[panel p]\nurl = http://10.1.2.3\nauth = \(text)")
        #expect(loaded.config.panels.first?.auth == auth)
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
    }

    @Test(arguments: ["ntlm", "", "any", "basic,digest"])
    func anythingElseIsOneClearLine(text: String) throws {
        let error = try #require(configError("[panel front]\nurl = http://10.1.2.3\nauth = \(text)"))
        #expect(error.line == 3 && error.key == "auth" && error.section == "[panel front]", "\(error)")
        #expect(error.description.hasSuffix("is not one of digest | basic — use one of digest | basic"), "\(error)")
        #expect(!error.description.contains("\n"))
        #expect(error.exitCode == 65)
    }

    @Test func theExampleShowsTheKeyWithItsDefault() throws {
        #expect(ConfigExample.text.contains("auth      = digest"))
        let loaded = try parseConfig(ConfigExample.text)
        #expect(loaded.config.panels.first?.auth == .digest)
    }
}
