import Foundation
import IntercomTestSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A web server on 127.0.0.1 with fixed answers by path (the query aside): a body, or a 302 to
/// another URL, or one answer to a path's first request and another to the rest (a live
/// playlist's reloads). One request per connection, served by one thread (poll), for tests of
/// where a stream's redirects may lead and what it may hold.
final class RedirectingServer: Sendable {
    indirect enum Answer: Sendable {
        /// Served as a playlist when the path ends in `.m3u8`, else as bytes of no named type.
        case body(String)
        /// Bytes of no named type (a media segment).
        case bytes([UInt8])
        case redirect(to: String)
        case first(Answer, then: Answer)
    }

    let port: UInt16
    private let listener: Int32
    /// Path → answer; a path ending in '*' matches every path it starts.
    private let routes: [String: Answer]
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    /// Requests answered so far, by path.
    private let served = Mutex<[String: Int]>([:])

    init(_ routes: [String: Answer]) throws {
        self.routes = routes
        (listener, port) = try LoopbackListener.open(backlog: 16)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Closes the listener; returns once the serving thread has ended.
    func stop() {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        finished.wait()
    }

    private func serve() {
        while !stopping.load(ordering: .relaxed) {
            var fd = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            // Short, so `stop` is noticed without a wake-up pipe.
            guard poll(&fd, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            answer(client)
            close(client)
        }
        close(listener)
        finished.signal()
    }

    private func answer(_ client: Int32) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: received, as: UTF8.self).contains("\r\n\r\n"), received.count < 65536 {
            var fd = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, 2000) > 0 else { return }
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { return }
            received += buffer[0..<count]
        }
        let target = String(decoding: received, as: UTF8.self).split(separator: " ").dropFirst().first ?? ""
        let path = String(target.prefix { $0 != "?" })
        var route = routes[path] ?? routes.first { $0.key.hasSuffix("*") && path.hasPrefix($0.key.dropLast()) }?.value
        let earlier = served.withLock { served in
            defer { served[path, default: 0] += 1 }
            return served[path, default: 0]
        }
        if case .first(let answer, let later)? = route { route = earlier == 0 ? answer : later }
        let head: String
        var body: [UInt8] = []
        switch route {
        case .body(let text):
            body = Array(text.utf8)
            let type = path.hasSuffix(".m3u8") ? "application/vnd.apple.mpegurl" : "application/octet-stream"
            head = "HTTP/1.1 200 OK\r\nContent-Type: \(type)\r\n"
        case .bytes(let bytes):
            body = bytes
            head = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
        case .redirect(let location):
            head = "HTTP/1.1 302 Found\r\nLocation: \(location)\r\n"
        case .first, nil:
            head = "HTTP/1.1 404 Not Found\r\n"
        }
        let bytes = Array((head + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n").utf8) + body
        _ = bytes.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
    }
}
