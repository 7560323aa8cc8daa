import Foundation

/// Folders a test makes outside a `TestDirectory` (a phone's data folder, a journal's, an intercom's):
/// each is made inside the running test's scope and removed, awaited, when that scope ends — after the
/// test's own cleanup has stopped the phones that wrote there. The scope is a task local, so folders made
/// by the test's child tasks land in it too; the test targets open it with the `.removesTestFolders`
/// trait (IntercomPhoneTestSupport). A folder made with no scope open is removed when the test process
/// exits, so a suite that forgot the trait still leaves nothing behind a finished run.
/// `INTERCOM_KEEP_TEST_DIRS=1` keeps them all, as it keeps `TestDirectory`s.
package final class TestFolderScope: @unchecked Sendable {
    @TaskLocal package static var current: TestFolderScope?

    private let lock = NSLock()
    private var paths: [String] = []

    package init() {}

    /// The folders made in this scope so far.
    package var folders: [String] { lock.withLock { paths } }

    /// Runs `body` with a fresh scope open, then removes every folder made in it (also when `body` throws).
    package static func run<T>(_ body: () async throws -> T) async rethrows -> T {
        let scope = TestFolderScope()
        defer { scope.removeAll() }
        return try await $current.withValue(scope) { try await body() }
    }

    /// A new private folder `<tmp>/intercom-TAG-XXXXXX` (mkdtemp, 0700), removed when the current scope
    /// ends (at exit when none is open). Crashes nothing on failure: a test's next step names the path.
    package static func make(_ tag: String) -> String {
        let template = NSTemporaryDirectory() + "intercom-\(tag)-XXXXXX"
        var buffer = Array(template.utf8CString)
        let made = buffer.withUnsafeMutableBufferPointer { pointer -> String? in
            guard let base = pointer.baseAddress, let path = mkdtemp(base) else { return nil }
            return String(cString: path)
        }
        let path = made ?? template.replacingOccurrences(of: "XXXXXX", with: UUID().uuidString.prefix(6))
        if made == nil { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        if let current {
            current.keep(path)
        } else {
            // Said once per folder, so the suite that lacks `.removesTestFolders` is found in the log.
            FileHandle.standardError.write(Data("test support: \(path) made outside a test's folder scope; removed at exit\n".utf8))
            unscoped.keep(path)
        }
        return path
    }

    private func keep(_ path: String) { lock.withLock { paths.append(path) } }

    private func removeAll() {
        let taken = lock.withLock {
            defer { paths = [] }
            return paths
        }
        if ProcessInfo.processInfo.environment["INTERCOM_KEEP_TEST_DIRS"] == "1" { return }
        for path in taken { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Folders made with no scope open: removed by an exit handler registered with the first of them.
    private static let unscoped: TestFolderScope = {
        atexit { TestFolderScope.unscoped.removeAll() }
        return TestFolderScope()
    }()
}
