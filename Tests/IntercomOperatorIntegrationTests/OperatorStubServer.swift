import Foundation
import Synchronization
import IntercomTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server on a loopback port for the operator client's tests: every request is
/// recorded and answered by `handler` (status, body), one connection at a time, `Connection: close`.
/// Bodies copied from real SmartYard answers go through it, so the client's headers, its POST body
/// and the size cap are exercised over real sockets. The simulated operator replaces it end to end.
final class OperatorStubServer: Sendable {
    struct Request: Sendable {
        var path: String
        var headers: [String: String]
        var body: String
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
        }
    }

    struct Reply: Sendable {
        var status: Int
        var body: Data
        static func json(_ text: String, status: Int = 200) -> Reply { Reply(status: status, body: Data(text.utf8)) }
        static let noContent = Reply(status: 204, body: Data())
        /// `{"code":200,"name":"OK","message":"OK","data":DATA}`
        static func ok(_ data: String) -> Reply { .json(#"{"code":200,"name":"OK","message":"OK","data":"# + data + "}") }
        static func error(_ status: Int, _ message: String) -> Reply {
            .json(#"{"code":\#(status),"name":"\#(message)","message":"\#(message)"}"#, status: status)
        }
    }

    typealias Handler = @Sendable (Request) -> Reply

    let port: UInt16
    private let listener: Int32
    private let handler: Handler
    private let recorded = Mutex<[Request]>([])
    private let stopping = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    var baseURL: String { "http://127.0.0.1:\(port)/mobile" }
    var requests: [Request] { recorded.withLock { $0 } }

    init(handler: @escaping Handler) throws {
        self.handler = handler
        (listener, port) = try LoopbackListener.open(backlog: 16)
        let thread = Thread { [self] in self.serve() }
        thread.start()
    }

    /// Stops accepting and waits until the serving thread is gone.
    func stop() {
        guard !stopping.exchange(true, ordering: .sequentiallyConsistent) else { return }
        done.wait()
        close(listener)
    }

    private func serve() {
        defer { done.signal() }
        while !stopping.load(ordering: .sequentiallyConsistent) {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            handle(connection)
            close(connection)
        }
    }

    private func handle(_ fd: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        var headerEnd: Range<Data.Index>?
        while headerEnd == nil {
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { return }
            buffer.append(contentsOf: chunk[0..<n])
            headerEnd = buffer.range(of: Data("\r\n\r\n".utf8))
        }
        guard let headerEnd else { return }
        let head = String(decoding: buffer[..<headerEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        var body = Data(buffer[headerEnd.upperBound...])
        while body.count < length {
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { return }
            body.append(contentsOf: chunk[0..<n])
        }
        let parts = head.first?.split(separator: " ") ?? []
        let request = Request(path: parts.count > 1 ? String(parts[1]) : "/", headers: headers,
                              body: String(decoding: body, as: UTF8.self))
        recorded.withLock { $0.append(request) }
        let reply = handler(request)
        var response = "HTTP/1.1 \(reply.status) X\r\nConnection: close\r\n"
        if reply.status != 204 {
            response += "Content-Type: application/json\r\nContent-Length: \(reply.body.count)\r\n"
        }
        response += "\r\n"
        send(fd, Data(response.utf8))
        if reply.status != 204 { send(fd, reply.body) }
    }

    /// Best effort: a client that stops reading (the size cap) ends the write.
    private func send(_ fd: Int32, _ data: Data) {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count, let base = bytes.baseAddress {
                let n = Glibc.send(fd, base + offset, min(65536, bytes.count - offset), Int32(MSG_NOSIGNAL))
                if n <= 0 { return }
                offset += n
            }
        }
    }
}
