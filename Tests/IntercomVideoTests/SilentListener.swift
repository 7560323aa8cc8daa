import Foundation
import IntercomTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A TCP port on 127.0.0.1 that accepts connections (the kernel completes the handshake from the
/// backlog) and never says a word: a panel that hangs during RTSP setup.
final class SilentListener {
    let port: UInt16
    private let descriptor: Int32

    init() throws {
        (descriptor, port) = try LoopbackListener.open(backlog: 8)
    }

    /// Someone connected (the kernel completed a handshake that waits in the backlog).
    var hasPendingConnection: Bool {
        var fd = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, 0) > 0
    }

    func close() { Glibc.close(descriptor) }
}
