import Foundation

/// The threads of this process as the kernel lists them, and a way to wait for a condition
/// that another thread makes true.
package enum ProcessThreads {
    /// Entries of /proc/self/task: every thread, Swift's, curl's and the C libraries' alike.
    package static var count: Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).count
    }

    /// Threads whose kernel name (/proc/self/task/TID/comm) is `name`: a thread a named thread starts
    /// inherits its name, so this counts a loop's thread and any it spawned, and no other suite's threads
    /// sharing the test process.
    package static func named(_ name: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            guard let comm = FileManager.default.contents(atPath: "/proc/self/task/\(task)/comm") else { return false }
            return String(decoding: comm, as: UTF8.self).trimmingCharacters(in: .newlines) == name
        }.count
    }
}
