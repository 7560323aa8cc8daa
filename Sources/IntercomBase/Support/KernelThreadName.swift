import Foundation

/// The calling thread's name as the kernel keeps it (`/proc/PID/task/*/comm`: `top -H`, debuggers
/// and the tests that count a part's threads read it). Foundation's `Thread.name` does not reach
/// the kernel on Linux, and `pthread_setname_np` is hidden from Swift.
public enum KernelThreadName {
    /// The kernel's limit: longer names are cut.
    public static let maxLength = 15

    public static func set(_ name: String) {
        // One write(2): Data.write goes through Foundation's file writing, which also fsyncs.
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(maxLength))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
