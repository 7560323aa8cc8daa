import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Many tiny panel web servers on 127.0.0.1 served by ONE thread (poll), so a test can open a
/// hundred panels' connections without the server side adding a thread each (libmicrohttpd, the
/// simulated panel's server, runs a thread per connection). It answers `images_cgi` with a small
/// JPEG-looking body (kept alive), `alarmchangestate_cgi` with a stream that never ends, and
/// anything else as real firmware answers a CGI it lacks: 200 with one line `NAME is not defined`,
/// then the connection closed (docs/BEWARD.md).
package final class LoopbackHTTPStub: Sendable {
    package let ports: [UInt16]
    private let listeners: [Int32]
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let streams = Atomic<Int>(0)
    private let snapshots = Atomic<Int>(0)

    /// The default snapshot: a JPEG's start-of-image marker and filler (enough for `BewardPanel`).
    package static let snapshotBody: [UInt8] = [0xFF, 0xD8] + [UInt8](repeating: 0x20, count: 254)

    private let snapshot: [UInt8]

    /// - Parameter snapshot: what `images_cgi` answers (a real JPEG for a bench's kiosk to draw).
    package init(servers: Int, snapshot: [UInt8] = LoopbackHTTPStub.snapshotBody) throws {
        self.snapshot = snapshot
        var listeners: [Int32] = []
        var ports: [UInt16] = []
        do {
            for _ in 0..<servers {
                let (descriptor, port) = try LoopbackListener.open(backlog: 64)
                listeners.append(descriptor)
                ports.append(port)
            }
        } catch {
            for descriptor in listeners { close(descriptor) }
            throw error
        }
        self.listeners = listeners
        self.ports = ports
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    package func baseURL(_ index: Int) -> String { "http://127.0.0.1:\(ports[index])" }

    /// Alarm streams open right now.
    package var openStreams: Int { streams.load(ordering: .relaxed) }
    package var snapshotsServed: Int { snapshots.load(ordering: .relaxed) }

    /// Closes every listener and connection; returns once the serving thread has ended.
    package func stop() {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        finished.wait()
    }

    private final class Connection {
        let descriptor: Int32
        var received: [UInt8] = []
        var streaming = false
        var closing = false
        init(descriptor: Int32) { self.descriptor = descriptor }
    }

    private func serve() {
        var connections: [Connection] = []
        while !stopping.load(ordering: .relaxed) {
            var fds = listeners.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            fds += connections.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            // Short, so `stop` is noticed without a wake-up pipe.
            guard poll(&fds, nfds_t(fds.count), 50) > 0 else { continue }
            for (index, fd) in fds.enumerated() where fd.revents != 0 {
                if index < listeners.count {
                    let client = accept(fd.fd, nil, nil)
                    if client >= 0 { connections.append(Connection(descriptor: client)) }
                } else if !read(connections[index - listeners.count]) {
                    connections[index - listeners.count].closing = true
                }
            }
            connections.removeAll { connection in
                guard connection.closing else { return false }
                if connection.streaming { streams.subtract(1, ordering: .relaxed) }
                close(connection.descriptor)
                return true
            }
        }
        for connection in connections {
            if connection.streaming { streams.subtract(1, ordering: .relaxed) }
            close(connection.descriptor)
        }
        for descriptor in listeners { close(descriptor) }
        finished.signal()
    }

    /// False when the connection is to be closed.
    private func read(_ connection: Connection) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = Glibc.read(connection.descriptor, &buffer, buffer.count)
        guard count > 0 else { return false }
        if connection.streaming { return true }  // a stream's client says nothing more
        connection.received += buffer[0..<count]
        while let end = headerEnd(connection.received) {
            let head = String(decoding: connection.received[..<end], as: UTF8.self)
            connection.received.removeFirst(end + 4)
            let path = head.split(separator: " ").dropFirst().first.map(String.init) ?? ""
            if path.contains("alarmchangestate_cgi") {
                connection.streaming = true
                streams.add(1, ordering: .relaxed)
                return send(connection, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n", [])
            }
            if path.contains("images_cgi") {
                snapshots.add(1, ordering: .relaxed)
                let head = "HTTP/1.1 200 OK\r\nContent-Type: image/jpeg\r\nContent-Length: \(snapshot.count)\r\n\r\n"
                guard send(connection, head, snapshot) else { return false }
                continue
            }
            let cgi = path.split(separator: "?").first?.split(separator: "/").last.map(String.init) ?? path
            _ = send(connection, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n\(cgi) is not defined\r\n", [])
            return false
        }
        return connection.received.count < 65536
    }

    private func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    private func send(_ connection: Connection, _ head: String, _ body: [UInt8]) -> Bool {
        let bytes = Array(head.utf8) + body
        return bytes.withUnsafeBytes { write(connection.descriptor, $0.baseAddress, $0.count) } == bytes.count
    }
}
