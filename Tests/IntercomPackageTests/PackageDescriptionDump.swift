import Foundation
import Testing

/// `swift package dump-package` for this checkout, read into the few facts the wall tests need. It runs
/// with a scratch folder of its own, so it never waits for the lock of the build that runs the tests.
struct PackageDescriptionDump {
    struct Target {
        let name: String
        let path: String
        let kind: String
        let dependencies: Set<String>

        func swiftFiles(root: URL) throws -> [URL] {
            let folder = root.appendingPathComponent(path)
            guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
            return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        }

        /// First-party modules this target's files import, each with one file that does.
        func firstPartyImports(in package: PackageDescriptionDump) throws -> [String: String] {
            var found: [String: String] = [:]
            for file in try swiftFiles(root: package.root) {
                let text = try String(contentsOf: file, encoding: .utf8)
                for line in text.split(separator: "\n") {
                    guard let module = SwiftImport.module(in: line.trimmingCharacters(in: .whitespaces)),
                          module != name, package.targetNames.contains(module) else { continue }
                    found[module] = found[module] ?? file.lastPathComponent
                }
            }
            return found
        }
    }

    let root: URL
    let targets: [Target]
    var targetNames: Set<String> { Set(targets.map(\.name)) }
    /// Targets with Swift sources: system libraries and C targets import nothing the compiler checks.
    var swiftTargets: [Target] {
        targets.filter { $0.kind != "system" && !((try? $0.swiftFiles(root: root).isEmpty) ?? true) }
    }

    /// Read once for all the tests of a run.
    static let shared = Result { try load() }

    static func load() throws -> PackageDescriptionDump {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dump-package-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let entries = json["targets"] as? [[String: Any]] else {
            throw DumpFailed(status: process.terminationStatus)
        }
        let targets = entries.compactMap { entry -> Target? in
            guard let name = entry["name"] as? String, let kind = entry["type"] as? String else { return nil }
            let path = entry["path"] as? String ?? (kind == "test" ? "Tests/\(name)" : "Sources/\(name)")
            let names = (entry["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency -> String? in
                for key in ["byName", "target", "product"] {
                    if let value = dependency[key] as? [Any], let first = value.first as? String { return first }
                }
                return nil
            }
            return Target(name: name, path: path, kind: kind, dependencies: Set(names))
        }
        return PackageDescriptionDump(root: root, targets: targets)
    }

    struct DumpFailed: Error, CustomStringConvertible {
        let status: Int32
        var description: String { "swift package dump-package failed (exit \(status)): is `swift` on PATH?" }
    }
}

/// The module an `import` line names (`import X`, `@testable import X`, `internal import X`,
/// `import struct X.Y`), or nil for any other line.
enum SwiftImport {
    static func module(in line: String) -> String? {
        var words = line.split(separator: " ").map(String.init)
        while let first = words.first, first.hasPrefix("@") || ["public", "package", "internal", "fileprivate", "private"].contains(first) {
            words.removeFirst()
        }
        guard words.first == "import", words.count >= 2 else { return nil }
        var rest = Array(words.dropFirst())
        if ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"].contains(rest[0]), rest.count >= 2 {
            rest.removeFirst()
        }
        return rest[0].split(separator: ".").first.map(String.init)
    }
}
