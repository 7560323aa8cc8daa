import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Thin wrappers over AF_UNIX stream sockets. Every descriptor is close-on-exec, so hooks
/// spawned by the daemon never inherit the control socket or a client's connection.
package enum UnixSocket {
    /// `sockaddr_un` for `path`; nil when the path does not fit (108 bytes on Linux).
    package static func address(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    /// A connected client socket, or the errno of the failure. With a `deadline`, a listener whose
    /// backlog is full (its accept loop stuck) gives `.timedOut(path, …)` then, instead of a connect
    /// that blocks for good; the socket comes back blocking either way.
    package static func connect(_ path: String, deadline: ContinuousClock.Instant? = nil) -> Result<Int32, ControlError> {
        guard var address = address(path) else { return .failure(.pathTooLong(path)) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(.system("socket", errno)) }
        let flags = fcntl(fd, F_GETFL)
        if deadline != nil { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        while true {
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if result == 0 { break }
            let code = errno
            if code == EINTR { continue }
            // A non-blocking AF_UNIX connect says EAGAIN while the listener's backlog is full.
            if code == EAGAIN, let deadline {
                if ContinuousClock.now >= deadline {
                    close(fd)
                    return .failure(.timedOut(path, seconds: 0))
                }
                usleep(20_000)
                continue
            }
            close(fd)
            return .failure(code == ENOENT || code == ECONNREFUSED ? .noDaemon(path) : .system("connect \(path)", code))
        }
        if deadline != nil { _ = fcntl(fd, F_SETFL, flags) }
        return .success(fd)
    }

    /// Waits until `fd` has something to read (or end of file); false once `deadline` passed.
    package static func waitReadable(_ fd: Int32, until deadline: ContinuousClock.Instant) -> Bool {
        PollWait.ready(fd, events: Int16(POLLIN), until: deadline)  // a failed poll: recv reports the error
    }

    /// Writes all of `data`; false when the peer is gone.
    package static func writeAll(_ fd: Int32, _ data: [UInt8]) -> Bool {
        var offset = 0
        while offset < data.count {
            let n = data[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    /// The uid, gid and pid of the process at the other end (SO_PEERCRED).
    package static func peerCredentials(_ fd: Int32) -> PeerCredentials? {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; } — read as three 32-bit words, since
        // Glibc's ucred is only declared under _GNU_SOURCE.
        var words: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: words))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &words, &length) == 0 else { return nil }
        return PeerCredentials(pid: words.0, uid: words.1, gid: words.2)
    }
}
