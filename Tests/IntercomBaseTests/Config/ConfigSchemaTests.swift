import Foundation
import Testing
@testable import IntercomBase

/// The config table and what is made from it: the example, the reference document and the
/// defaults it claims.
@Suite struct ConfigSchemaTests {
    /// The repository's root, from this file's place in it.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func committedReferenceIsTheGeneratedOne() throws {
        let url = Self.repositoryRoot.appendingPathComponent("docs/CONFIG.md")
        let committed = try String(contentsOf: url, encoding: .utf8)
        #expect(committed == ConfigReference.markdown + "\n",
                "docs/CONFIG.md differs from the config table: run `make docs` (intercom config --reference > docs/CONFIG.md)")
    }

    /// The decoder builds only the sections a file names: each kind builds the section of that kind.
    @Test func eachKindBuildsItsOwnSection() {
        #expect(ConfigSchema.sections.map(\.kind) == ConfigSchema.kinds)
        #expect(Set(ConfigSchema.kinds).count == ConfigSchema.kinds.count)
        #expect(ConfigSchema.section("nosuch") == nil)
    }

    @Test func referenceNamesEverySectionAndKey() {
        let reference = ConfigReference.markdown
        for section in ConfigSchema.sections {
            #expect(reference.contains("## [\(section.kind)"), "\(section.kind)")
            for row in section.rows {
                #expect(reference.contains("| `\(row.name)` |"), "[\(section.kind)] \(row.name)")
            }
        }
    }

    /// Every key is in the example, and the example with its commented-out lines switched on
    /// (the registrar account, the operator) parses without a warning too.
    @Test func everyKeyIsInTheExampleAndItAllParses() throws {
        for section in ConfigSchema.sections {
            for row in section.rows {
                #expect(!row.example.isEmpty, "[\(section.kind)] \(row.name) has no example line")
            }
        }
        let loaded = try parseConfig(ConfigExample.render(showingAll: true))
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        #expect(loaded.config.sip.account?.identity == "sip:101@pbx.example.org")
        #expect(loaded.config.operator(named: "home")?.phone == "79123456781")
    }

    /// The example is the text it was before the table made it (one comment moved a column right).
    @Test func exampleKeepsItsShape() {
        let lines = ConfigExample.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "# intercom configuration — ~/.config/intercom/config.ini")
        #expect(lines.contains("tls_ca     =                     # its CA certificate(s), PEM file or directory (empty = system store)"))
        #expect(lines.contains("# api   = https://api.operator.example/mobile   # number, not a panel's password; the"))
        #expect(lines.contains("dtmf.gap_ms      = 500           # pause between repeats of the sequence"))
        #expect(lines.contains("on_door_opened   ="))
        #expect(lines.last == "snapshot_wait_ms = 300           # 0 = run on_call_incoming at once, without the picture")
        #expect(!ConfigExample.text.hasSuffix("\n"))
    }

    /// A default the reference states as a value changes nothing when written out.
    @Test func statedDefaultsAreTheDefaults() throws {
        for section in ConfigSchema.sections {
            let header = section.named ? "[\(section.kind) x]" : "[\(section.kind)]"
            let required = section.rows.filter(\.required).compactMap { row in
                row.example.first.map { "\(row.name) = \($0.value)" }
            }
            let base = ([header] + required).joined(separator: "\n")
            let plain = try parseConfig(base).config
            for row in section.rows {
                guard case .value(let text) = row.defaultValue else { continue }
                let written = try parseConfig(base + "\n\(row.name) = \(text)")
                #expect(written.config == plain, "[\(section.kind)] \(row.name) = \(text) is not the default")
                #expect(written.warnings.isEmpty, "\(written.warnings)")
            }
        }
    }

    /// A live key that SIGHUP could not copy would be neither applied nor reported.
    @Test func everyLiveKeyCanBeApplied() {
        for section in ConfigSchema.sections {
            for row in section.rows where row.reload == .live {
                #expect(row.appliesLive, "[\(section.kind)] \(row.name) is live but has no writable key path")
            }
        }
    }
}
