import Foundation

/// The processes on this machine as /proc shows them, for tests that check what a run started and
/// what it left behind. A test picks its own by an environment value only its runs carry (its
/// private HOME), so other tests' processes on the shared machine never count.
package struct LiveProcess: Sendable, CustomStringConvertible {
    package var pid: Int32
    package var arguments: [String]

    package var description: String { "\(pid) \(arguments.joined(separator: " "))" }

    /// Every process of this user whose environment has `key=value`; processes that end while
    /// being read are skipped.
    package static func all(withEnvironment key: String, equalTo value: String) -> [LiveProcess] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap(Int32.init).compactMap { pid in
            guard let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ"),
                  split(environ).contains("\(key)=\(value)"),
                  let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
            return LiveProcess(pid: pid, arguments: split(cmdline))
        }
    }

    private static func split(_ data: Data) -> [String] {
        data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }
}
