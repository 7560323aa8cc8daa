import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP listener on 127.0.0.1 that answers nothing (the kernel completes handshakes into
/// its backlog): where a broker, a panel or a playlist's other host should be, to see what a client
/// sends, or that it never connects at all. The tests' one TCP probe of that kind.
package final class SilentListener: @unchecked Sendable {
    package let descriptor: Int32
    package let port: UInt16
    private let lock = NSLock()
    private var closed = false

    /// `port`: that one (a broker that just stopped held it), else one the kernel picks.
    package init(port wanted: UInt16 = 0) throws {
        (descriptor, port) = try LoopbackListener.open(backlog: 8, port: wanted)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// Someone connected (a completed handshake waits in the backlog); nothing is accepted.
    package var hasPendingConnection: Bool {
        var fd = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, 0) > 0
    }

    /// Connections the kernel completed that nobody accepted yet (each accepted and closed here).
    package func pendingConnections() -> Int {
        var count = 0
        while true {
            let client = accept(descriptor, nil, nil)
            guard client >= 0 else { return count }
            count += 1
            Glibc.close(client)
        }
    }

    /// The first bytes of the next connection (up to `count`, within `timeout`), then closes it.
    package func firstBytes(_ count: Int = 512, timeout: Duration = TestPatience.condition) async throws -> [UInt8] {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var client: Int32 = -1
        guard await TestPatience.eventually(within: timeout, { client = accept(descriptor, nil, nil); return client >= 0 }) else {
            throw HarnessError.timeout("a connection to port \(port)", after: timeout, log: "")
        }
        defer { Glibc.close(client) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: count)
        while received.isEmpty {
            var fd = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, 100) >= 0 else { break }
            if fd.revents != 0 {
                let got = read(client, &buffer, count)
                if got <= 0 { break }
                received += buffer.prefix(got)
            }
            if clock.now >= deadline { break }
        }
        return received
    }

    /// Stops listening (again is nothing); the last reference going does it too.
    package func close() {
        let first = lock.withLock { () -> Bool in
            defer { closed = true }
            return !closed
        }
        if first { Glibc.close(descriptor) }
    }

    deinit { close() }
}
