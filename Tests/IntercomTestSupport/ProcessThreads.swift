import Foundation

/// The threads of this process as the kernel lists them, and a way to wait for a condition
/// that another thread makes true.
package enum ProcessThreads {
    /// Entries of /proc/self/task: every thread, Swift's, curl's and the C libraries' alike.
    package static var count: Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).count
    }

    /// True once `condition` holds, false when `timeout` passed first; looked at every 10 ms.
    package static func eventually(within timeout: Duration, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}
