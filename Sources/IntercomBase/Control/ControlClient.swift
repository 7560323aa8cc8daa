import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking client of the control socket, for `intercom ctl` and tests: one connection,
/// request lines out, reply and event lines in.
///
/// With a `timeout`, connecting and each `request` must finish within it (`ControlError.timedOut`):
/// a daemon whose accept loop is stuck leaves clients in the socket's backlog, and a socket that
/// accepts but never answers would otherwise hold `intercom ctl` forever. The daemon must run as
/// our own user (SO_PEERCRED): a socket someone else serves gets no request of ours.
public final class ControlClient: @unchecked Sendable {
    public let path: String
    public let timeout: Duration?
    /// The daemon's process id, from the socket's peer credentials.
    public let peerPID: Int32
    private let socket: OwnedDescriptor
    private var pending: [UInt8] = []
    private var atEnd = false

    public init(path: String, timeout: Duration? = nil, ownUID: UInt32 = getuid()) throws(ControlError) {
        self.path = path
        self.timeout = timeout
        let deadline = timeout.map { ContinuousClock.now.advanced(by: $0) }
        switch UnixSocket.connect(path, deadline: deadline) {
        case .success(let fd): socket = OwnedDescriptor(fd)
        case .failure(.timedOut): throw .timedOut(path, seconds: Self.seconds(timeout))
        case .failure(let error): throw error
        }
        guard let peer = UnixSocket.peerCredentials(socket.fd) else { throw .system("SO_PEERCRED on \(path)", errno) }
        guard peer.uid == ownUID else { throw .foreignDaemon(path, uid: peer.uid, ownUID: ownUID) }
        peerPID = peer.pid
    }

    private static func seconds(_ duration: Duration?) -> Double {
        guard let duration else { return 0 }
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    public func send(_ request: ControlRequest) throws(ControlError) {
        try sendLine(request.json.encoded)
    }

    /// Sends a raw line (tests use it for malformed requests).
    public func sendLine(_ line: String) throws(ControlError) {
        guard UnixSocket.writeAll(socket.fd, Array((line + "\n").utf8)) else { throw .closed }
    }

    /// The next line from the daemon, waiting as long as it takes; nil at end of stream.
    public func readLine() -> String? {
        // Without a deadline the only error is none at all.
        (try? readLine(until: nil)) ?? nil
    }

    /// The next line from the daemon; nil at end of stream; `.timedOut` once `deadline` passes.
    public func readLine(until deadline: ContinuousClock.Instant?) throws(ControlError) -> String? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            if atEnd { return nil }
            if let deadline, !UnixSocket.waitReadable(socket.fd, until: deadline) {
                throw .timedOut(path, seconds: Self.seconds(timeout))
            }
            let n = buffer.withUnsafeMutableBytes { recv(socket.fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                atEnd = true
                continue
            }
            pending += buffer[0..<n]
        }
    }

    /// Sends a request and returns its reply object (`reply: true`), skipping event lines;
    /// within `timeout` when there is one.
    public func request(_ request: ControlRequest) throws(ControlError) -> JSONValue {
        let deadline = timeout.map { ContinuousClock.now.advanced(by: $0) }
        try send(request)
        while let line = try readLine(until: deadline) {
            guard let value = JSONValue.parse(line) else { throw .badReply(line) }
            if value["reply"] == .bool(true) { return value }
        }
        throw .closed
    }

    /// Closes the sending side, so the daemon sees end-of-file.
    public func finishSending() { socket.shutdownWrite() }

    /// Stops both ways: a `readLine` blocked on a daemon that never closes (stopped, hung) returns nil.
    public func shutdown() { socket.shutdown() }
}
