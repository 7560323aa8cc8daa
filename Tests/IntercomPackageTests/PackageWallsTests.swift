import Foundation
import Testing

/// The walls between the parts are kept by Package.swift, not by SwiftPM's habit of letting every
/// transitive module through: each target declares exactly the first-party modules it imports, imports
/// them unconditionally, and the layout in docs/DEVELOPMENT.md names the targets that exist.
@Suite struct PackageWallsTests {
    @Test func everyTargetDeclaresWhatItImportsAndImportsWhatItDeclares() throws {
        let package = try PackageDescriptionDump.shared.get()
        var problems: [String] = []
        for target in package.swiftTargets {
            let imported = try target.firstPartyImports(in: package)
            for (module, file) in imported.sorted(by: { $0.key < $1.key }) where !target.dependencies.contains(module) {
                problems.append("\(target.name) imports \(module) (\(file)) without declaring it in Package.swift")
            }
            for module in target.dependencies.sorted() where !imported.keys.contains(module) {
                problems.append("\(target.name) declares \(module) in Package.swift but no file imports it")
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems:\n\(problems.joined(separator: "\n"))")
    }

    @Test func firstPartyImportsStandOutsideConditionalCompilation() throws {
        let package = try PackageDescriptionDump.shared.get()
        var problems: [String] = []
        for target in package.swiftTargets {
            for file in try target.swiftFiles(root: package.root) {
                var depth = 0
                let text = try String(contentsOf: file, encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    if trimmed.hasPrefix("#if") { depth += 1 }
                    if trimmed.hasPrefix("#endif") { depth -= 1 }
                    if depth > 0, let module = SwiftImport.module(in: trimmed), package.targetNames.contains(module) {
                        problems.append("\(file.lastPathComponent):\(number + 1) imports \(module) inside #if")
                    }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems:\n\(problems.joined(separator: "\n"))")
    }

    /// The "Layout" of docs/DEVELOPMENT.md (the developers' guide; README only links it) lists one line per
    /// target folder; a target added, renamed or removed without the guide following fails here.
    @Test func developmentGuideLayoutNamesEveryTargetAndNoOther() throws {
        let package = try PackageDescriptionDump.shared.get()
        let guide = try String(contentsOf: package.root.appendingPathComponent("docs/DEVELOPMENT.md"), encoding: .utf8)
        let layout = try #require(guide.range(of: "\n## Layout\n").map { guide[$0.upperBound...] })
        let section = layout.range(of: "\n## ").map { layout[..<$0.lowerBound] } ?? layout
        var listed = Set<String>()
        for line in section.split(separator: "\n") {
            guard let path = line.split(separator: " ").first, path.hasPrefix("Sources/") || path.hasPrefix("Tests/") else { continue }
            listed.insert(String(path))
        }
        let paths = Set(package.targets.map(\.path))
        #expect(paths.subtracting(listed).sorted() == [], "targets the Layout of docs/DEVELOPMENT.md does not list")
        #expect(listed.subtracting(paths).sorted() == [], "folders the Layout of docs/DEVELOPMENT.md lists that are no target")
    }
}
