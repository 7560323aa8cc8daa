import Foundation
import Testing
import IntercomTestSupport

/// ncurses and chafa stay behind the terminal layer. SwiftPM hands every target the module maps
/// of its dependencies' dependencies, so a stray `import CNcurses` above IntercomTerminal would
/// compile; this check makes it fail. (Inside, `internal import` keeps C types out of its API.)
@Suite("Terminal layer")
struct TerminalLayerTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Each Swift file under Sources that imports `module`, relative to the repository.
    static func importers(of module: String) throws -> [String] {
        let sources = root.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else {
            throw HarnessError("cannot read \(sources.path)")
        }
        var found: [String] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            let imports = text.split(separator: "\n").contains { line in
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count else { return false }
                return words[..<index].allSatisfy { ["internal", "private", "fileprivate", "public", "package", "@_implementationOnly"].contains($0) }
                    && words[index + 1] == Substring(module)
            }
            if imports { found.append(String(url.path.dropFirst(root.path.count + 1))) }
        }
        return found.sorted()
    }

    @Test(arguments: ["CNcurses", "CChafa"])
    func onlyTheTerminalLayerImports(_ module: String) throws {
        let importers = try Self.importers(of: module)
        #expect(!importers.isEmpty, "no file imports \(module): the check looks in the wrong place")
        #expect(importers.allSatisfy { $0.hasPrefix("Sources/IntercomTerminal/") }, "\(module) imported outside IntercomTerminal: \(importers)")
        // Access-level import: a C type in the layer's public API is a compile error.
        for file in importers {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            #expect(text.contains("internal import \(module)"), "\(file) imports \(module) without 'internal'")
        }
    }
}
