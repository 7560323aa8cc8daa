import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking client of the control socket, for `intercom ctl` and tests: one connection,
/// request lines out, reply and event lines in.
public final class ControlClient: @unchecked Sendable {
    private let fd: Int32
    private var pending: [UInt8] = []
    private var atEnd = false

    public init(path: String) throws(ControlError) {
        switch UnixSocket.connect(path) {
        case .success(let fd): self.fd = fd
        case .failure(let error): throw error
        }
    }

    deinit { close(fd) }

    public func send(_ request: ControlRequest) throws(ControlError) {
        try sendLine(request.json.encoded)
    }

    /// Sends a raw line (tests use it for malformed requests).
    public func sendLine(_ line: String) throws(ControlError) {
        guard UnixSocket.writeAll(fd, Array((line + "\n").utf8)) else { throw .closed }
    }

    /// The next line from the daemon; nil at end of stream.
    public func readLine() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            if atEnd { return nil }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                atEnd = true
                continue
            }
            pending += buffer[0..<n]
        }
    }

    /// Sends a request and returns its reply object (`reply: true`), skipping event lines.
    public func request(_ request: ControlRequest) throws(ControlError) -> JSONValue {
        try send(request)
        while let line = readLine() {
            guard let value = JSONValue.parse(line) else { throw .badReply(line) }
            if value["reply"] == .bool(true) { return value }
        }
        throw .closed
    }

    /// Closes the sending side, so the daemon sees end-of-file.
    public func finishSending() { shutdown(fd, Int32(SHUT_WR)) }
}
