import Foundation

/// The processes below one we started, as the kernel lists them: a server's workers (tmux's panes,
/// PostgreSQL's backends), for a test that must reach each of them by pid, never by name.
package enum ProcessTree {
    /// The pids below `root` (children first found through /proc/PID/task/*/children), `root` excluded.
    package static func descendants(of root: Int32) -> [Int32] {
        var found: [Int32] = [], queue = [root]
        while let pid = queue.popLast() {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            for task in tasks {
                let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
                for child in children.split(separator: " ").compactMap({ Int32($0) }) where !found.contains(child) {
                    found.append(child)
                    queue.append(child)
                }
            }
        }
        return found
    }
}
