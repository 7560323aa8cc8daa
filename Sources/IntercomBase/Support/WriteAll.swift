#if canImport(Glibc)
import Glibc
#endif

/// `write(2)` until every byte is written: a short write continues where it stopped, EINTR is retried.
/// Foundation's `FileHandle.write(_:)` traps on an error instead (a full disk, a closed pipe); here the
/// caller gets the errno and decides what to drop.
public enum WriteAll {
    /// nil when every byte was written, else the errno (EPIPE: the reader left; ENOSPC: the disk is
    /// full; EAGAIN: a non-blocking reader is behind; EIO: the kernel took nothing).
    public static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Int32? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, base + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if n == 0 { return EIO }
            offset += n
        }
        return nil
    }
}
