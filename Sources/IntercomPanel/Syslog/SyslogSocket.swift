import Dispatch
import Foundation
import IntercomBase
#if canImport(Glibc)
import Glibc
#endif

/// The UDP socket the panels' syslog comes to: each datagram with the address it came from, as
/// the kernel saw it (never what the line says of itself). Bound by `open` (a port in use is a
/// one-line error); read by a dispatch source, so no thread waits on it; closed when the stream's
/// reader stops reading.
public final class SyslogSocket: Sendable {
    /// One datagram: its sender's numeric address (an IPv4 peer on a dual-stack socket as IPv4)
    /// and at most `SyslogFrame.maximumBytes` of it.
    public struct Datagram: Sendable {
        public var source: String
        public var bytes: [UInt8]
        public init(source: String, bytes: [UInt8]) {
            self.source = source
            self.bytes = bytes
        }
    }

    /// Why the socket could not be had: 69 (unavailable: the port is taken), as a SIP port in use is,
    /// or 65 (the config's address is no IP address).
    public struct OpenError: Error, CustomStringConvertible {
        public let description: String
        public var exitCode: Int32 = 69
    }

    /// The address bound, with the port the OS chose for 0.
    public let bound: ListenAddress
    public let datagrams: AsyncStream<Datagram>

    private init(bound: ListenAddress, datagrams: AsyncStream<Datagram>) {
        self.bound = bound
        self.datagrams = datagrams
    }

    public static func open(_ address: ListenAddress) throws(OpenError) -> SyslogSocket {
        let v6 = address.host.contains(":")
        guard let target = SocketAddress(host: address.host, port: address.port) else {
            let shown = v6 ? "[\(address.host)]" : address.host
            throw OpenError(description: "syslog: listen = udp:\(shown):\(address.port): '\(address.host)' is not an IP address; "
                                + "write one (e.g. \(v6 ? "udp:[::]:5514" : "udp:0.0.0.0:5514"))", exitCode: 65)
        }
        let fd = socket(target.family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw OpenError(description: "syslog: cannot make a UDP socket: \(String(cString: strerror(errno)))") }
        var port = address.port
        guard target.bind(fd) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw OpenError(description: "syslog: cannot listen on udp:\(address.host):\(address.port): \(reason); choose another [syslog] listen port")
        }
        if port == 0 {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            _ = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
            port = Int(UInt16(bigEndian: withUnsafeBytes(of: &storage) { target.family == AF_INET6
                ? $0.loadUnaligned(as: sockaddr_in6.self).sin6_port : $0.loadUnaligned(as: sockaddr_in.self).sin_port }))
        }
        let (stream, continuation) = AsyncStream.makeStream(of: Datagram.self, bufferingPolicy: .bufferingNewest(256))
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: DispatchQueue(label: "intercom.syslog"))
        source.setEventHandler { drain(fd, into: continuation) }
        source.setCancelHandler {
            Glibc.close(fd)
            continuation.finish()
        }
        let cancel = SourceCancel(source)
        continuation.onTermination = { _ in cancel.run() }
        source.resume()
        return SyslogSocket(bound: ListenAddress(transport: .udp, host: address.host, port: port), datagrams: stream)
    }

    /// Reads every datagram waiting; a longer one is cut (`MSG_TRUNC` is not asked for).
    private static func drain(_ fd: Int32, into continuation: AsyncStream<Datagram>.Continuation) {
        var buffer = [UInt8](repeating: 0, count: SyslogFrame.maximumBytes)
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let count = buffer.withUnsafeMutableBytes { bytes in
                withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(fd, bytes.baseAddress, bytes.count, 0, $0, &length) } }
            }
            guard count >= 0 else { return }
            let source = withUnsafeBytes(of: &storage) { SocketAddressText.host(UnsafeRawBufferPointer(rebasing: $0.prefix(Int(length)))) }
            guard let source else { continue }
            continuation.yield(Datagram(source: source, bytes: Array(buffer.prefix(count))))
        }
    }
}

/// Cancels the read source from the stream's end, on whatever thread that happens: a dispatch
/// source's `cancel` is thread-safe, which Dispatch's types do not declare to Swift.
private final class SourceCancel: @unchecked Sendable {
    private let source: any DispatchSourceRead
    init(_ source: any DispatchSourceRead) { self.source = source }
    func run() { source.cancel() }
}
