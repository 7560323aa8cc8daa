import Foundation

/// A private temp directory for one test (peer configs, logs, recordings), removed on deinit.
/// Set `INTERCOM_KEEP_TEST_DIRS=1` to keep it for post-mortem debugging.
package final class TestDirectory: @unchecked Sendable {
    package let url: URL
    package var path: String { url.path }

    package init(prefix: String = "intercom-test") throws {
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix).XXXXXX").path
        var buffer = Array(template.utf8CString)
        let made = buffer.withUnsafeMutableBufferPointer { ptr -> String? in
            guard let base = ptr.baseAddress, let path = mkdtemp(base) else { return nil }
            return String(cString: path)
        }
        guard let made else { throw HarnessError("mkdtemp failed for \(template): errno \(errno)") }
        url = URL(fileURLWithPath: made, isDirectory: true)
    }

    /// URL of `name` inside the directory (not created).
    package func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes `text` to `name` and returns its URL.
    @discardableResult
    package func write(_ text: String, to name: String) throws -> URL {
        let target = file(name)
        try text.write(to: target, atomically: true, encoding: .utf8)
        return target
    }

    /// Creates (if needed) and returns a subdirectory.
    package func subdirectory(_ name: String) throws -> URL {
        let dir = url.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Contents of `name` as text, or "" if it does not exist (yet).
    package func read(_ name: String) -> String {
        guard let data = try? Data(contentsOf: file(name)) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    package func remove() {
        if ProcessInfo.processInfo.environment["INTERCOM_KEEP_TEST_DIRS"] == "1" { return }
        try? FileManager.default.removeItem(at: url)
    }

    deinit { remove() }
}
