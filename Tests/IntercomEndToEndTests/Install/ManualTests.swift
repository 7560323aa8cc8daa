import Foundation
import IntercomBase
import IntercomCLI
import IntercomPhoneTestSupport
import Testing
import IntercomTestSupport

/// docs/REFERENCE.md and the man pages, made by the built binary from the command and config tables.
@Suite("reference and man pages", .removesTestFolders)
struct ManualTests {
    @Test("the committed docs/REFERENCE.md is what 'intercom help --reference' makes")
    func committedReferenceIsTheGeneratedOne() async throws {
        let dir = try TestDirectory(prefix: "manual")
        let generated = try await InstalledProgram.output(["help", "--reference"], in: dir)
        let committed = try String(contentsOf: InstalledProgram.repositoryRoot.appendingPathComponent("docs/REFERENCE.md"), encoding: .utf8)
        #expect(committed == generated, "docs/REFERENCE.md differs from the command tables: run `make docs`")
        for entry in CommandIndex.all { #expect(generated.contains("### intercom \(entry.name)\n"), "\(entry.name)") }
        for event in EventName.allCases { #expect(generated.contains("| `\(event.rawValue)` |"), "\(event.rawValue)") }
        for code in [0, 1, 64, 65, 69, 77] { #expect(generated.contains("| \(code) |"), "exit code \(code)") }
    }

    @Test("every control-socket request is documented, and nothing else")
    func controlRequestsAreDocumented() {
        #expect(ControlCommandReference.all.map(\.name) == ControlRequest.commands)
    }

    @Test("man -l renders intercom(1) with every command, each of its options, every event and exit code")
    func commandPageRenders() async throws {
        let dir = try TestDirectory(prefix: "manual")
        let page = try dir.write(try await InstalledProgram.output(["help", "--man"], in: dir), to: "intercom.1")
        let lint = try await InstalledProgram.run("groff", ["-man", "-ww", "-z", page.path], in: dir)
        #expect(lint.status == 0 && lint.stderr.isEmpty, "groff warns about intercom.1: \(lint.stderr)")
        let text = try await InstalledProgram.man(page.path, in: dir)
        #expect(text.contains("INTERCOM(1)"))
        for entry in CommandIndex.all {
            #expect(text.contains("intercom \(entry.name) [options]"), "\(entry.name) missing from intercom(1)")
            // Each option the command's own help lists is on the page.
            let help = try await InstalledProgram.output(["help", entry.name], in: dir)
            let options = help.split(separator: "\n").filter { $0.hasPrefix("  --") }
                .compactMap { $0.split(separator: " ").first.map(String.init) }
            #expect(!options.isEmpty)
            for option in options { #expect(text.contains(option), "\(entry.name) \(option) missing from intercom(1)") }
        }
        for event in EventName.allCases { #expect(text.contains(event.rawValue), "event \(event.rawValue)") }
        for section in ["EXIT STATUS", "EVENTS", "CONTROL SOCKET", "ENVIRONMENT", "FILES", "SEE ALSO"] {
            #expect(text.contains("\n\(section)\n"), "\(section) section missing")
        }
    }

    @Test("man -l renders intercom-config(5) with every section and key of the config table")
    func configPageRenders() async throws {
        let dir = try TestDirectory(prefix: "manual")
        let page = try dir.write(try await InstalledProgram.output(["config", "--man"], in: dir), to: "intercom-config.5")
        let lint = try await InstalledProgram.run("groff", ["-man", "-ww", "-z", page.path], in: dir)
        #expect(lint.status == 0 && lint.stderr.isEmpty, "groff warns about intercom-config.5: \(lint.stderr)")
        let text = try await InstalledProgram.man(page.path, in: dir)
        #expect(text.contains("INTERCOM-CONFIG(5)"))
        // The keys as the generated CONFIG.md lists them: "| `key` |" rows under "## [section]".
        var sections = 0, keys = 0
        for line in ConfigReference.markdown.split(separator: "\n") {
            if line.hasPrefix("## ["), let kind = line.dropFirst(4).split(whereSeparator: { $0 == "]" || $0 == " " }).first {
                sections += 1
                #expect(text.contains("THE [\(kind)"), "section [\(kind)] missing from intercom-config(5)")
            } else if line.hasPrefix("| `"), let key = line.split(separator: "`").dropFirst().first {
                keys += 1
                #expect(text.contains("\n       \(key) ("), "key \(key) missing from intercom-config(5)")
            }
        }
        #expect(sections >= 7 && keys >= 40, "read \(sections) sections, \(keys) keys")
    }
}
