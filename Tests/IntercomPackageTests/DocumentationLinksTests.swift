import Foundation
import Testing

/// README is the front door a newcomer reads in minutes, and the guides under docs/ hold the rest: README stays
/// short, and every relative link in README, DECISIONS and docs/*.md reaches a file of this repository (a guide
/// renamed or a section moved without its links following fails here; nothing points outside the repository).
@Suite struct DocumentationLinksTests {
    static let readmeLineLimit = 400

    @Test func readmeStaysShortEnoughToReadInMinutes() throws {
        let root = try PackageDescriptionDump.shared.get().root
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= Self.readmeLineLimit, "README.md has \(lines) lines (at most \(Self.readmeLineLimit)): move the detail to a guide under docs/")
    }

    @Test func everyRelativeLinkReachesAFileOfTheRepository() throws {
        let root = try PackageDescriptionDump.shared.get().root.standardizedFileURL
        let docs = root.appendingPathComponent("docs")
        let guides = try FileManager.default.contentsOfDirectory(atPath: docs.path)
            .filter { $0.hasSuffix(".md") }
            .map { docs.appendingPathComponent($0) }
        var problems: [String] = []
        for file in [root.appendingPathComponent("README.md"), root.appendingPathComponent("DECISIONS.md")] + guides {
            let text = try String(contentsOf: file, encoding: .utf8)
            for target in MarkdownLinks.relativeTargets(in: text) {
                let resolved = file.deletingLastPathComponent().appendingPathComponent(target).standardizedFileURL
                let name = "\(file.lastPathComponent): \(target)"
                if !resolved.path.hasPrefix(root.path + "/") {
                    problems.append("\(name) points outside the repository")
                } else if !FileManager.default.fileExists(atPath: resolved.path) {
                    problems.append("\(name) names no file")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) broken links:\n\(problems.joined(separator: "\n"))")
    }
}

/// The targets of Markdown links and images, `[text](target)`, that name a file: web addresses, mail and
/// in-page anchors are left out, and an anchor after a file's name is dropped.
enum MarkdownLinks {
    static func relativeTargets(in text: String) -> [String] {
        var targets: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "](") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: ")") else { break }
            let target = String(rest[..<close]).split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            rest = rest[close...]
            if target.isEmpty || target.contains("://") || target.hasPrefix("mailto:") || target.contains(" ") { continue }
            targets.append(target)
        }
        return targets
    }
}
