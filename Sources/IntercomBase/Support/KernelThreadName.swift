import Foundation

/// The calling thread's name as the kernel keeps it (`/proc/PID/task/*/comm`: `top -H`, debuggers
/// and the tests that count a part's threads read it). Foundation's `Thread.name` does not reach
/// the kernel on Linux, and `pthread_setname_np` is hidden from Swift.
public enum KernelThreadName {
    /// The kernel's limit: longer names are cut.
    public static let maxLength = 15

    public static func set(_ name: String) {
        try? Data(name.utf8.prefix(maxLength)).write(to: URL(fileURLWithPath: "/proc/thread-self/comm"))
    }
}
