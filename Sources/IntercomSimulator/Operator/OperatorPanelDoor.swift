import Foundation
import IntercomBase
#if canImport(Glibc)
import Glibc
#endif

/// The door requests SmartYard's Beward driver sends a DKS panel: HTTP Basic with the panel's
/// credentials (sent up front, no challenge first), `intercom_cgi` for the door, then
/// `config_cgi?action=forcesave`. Like the driver, it ignores every failure and every status: the
/// API answers 204 whatever the panel did.
struct OperatorPanelDoor: Sendable {
    let target: OperatorPanelTarget

    func open(doorId: Int) {
        switch doorId {
        case 0:
            get("/cgi-bin/intercom_cgi?action=maindoor", timeoutMs: 3000)
        case 1:
            get("/cgi-bin/intercom_cgi?action=altdoor", timeoutMs: 3000)
        case 2:
            get("/cgi-bin/intercom_cgi?action=light&Enable=on", timeoutMs: 3000)
            usleep(100_000)
            get("/cgi-bin/intercom_cgi?action=light&Enable=off", timeoutMs: 3000)
        default:
            return
        }
        // The driver sets no timeout here; ours caps a hanging panel at 10 s.
        get("/cgi-bin/config_cgi?action=forcesave", timeoutMs: 10_000)
    }

    /// One HTTP/1.1 GET over a fresh connection, answer read to the end and dropped.
    /// Returns the status line's code, or nil when the panel could not be reached.
    @discardableResult
    func get(_ path: String, timeoutMs: Int) -> Int? {
        guard let url = URLAddress(parsing: target.url), url.scheme == "http", url.portIsValid else { return nil }
        let host = url.host
        let port = url.port ?? 80
        guard let fd = Self.connect(host: host, port: port, timeoutMs: timeoutMs) else { return nil }
        defer { close(fd) }
        let credentials = Data("\(target.user):\(target.password)".utf8).base64EncodedString()
        let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let request = "GET \(path) HTTP/1.1\r\nHost: \(hostHeader)\r\nAuthorization: Basic \(credentials)\r\n"
            + "User-Agent: SmartYard-Server (simulated)\r\nAccept: */*\r\nConnection: close\r\n\r\n"
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return nil }
            sent += n
        }
        var answer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while answer.count < 1 << 20 {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            answer.append(contentsOf: chunk[0..<n])
        }
        let statusLine = String(decoding: answer.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let parts = statusLine.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }

    /// A connected TCP socket with send and receive timeouts, or nil.
    private static func connect(host: String, port: Int, timeoutMs: Int) -> Int32? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(list) }
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let info = node {
            node = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            var timeout = timeval(tv_sec: timeoutMs / 1000, tv_usec: (timeoutMs % 1000) * 1000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            // With SO_SNDTIMEO set, Linux bounds connect() by it too.
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return fd }
            close(fd)
        }
        return nil
    }
}
