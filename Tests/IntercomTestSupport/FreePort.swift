import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Free loopback ports for peers, so parallel tests never collide.
/// A port is free for both UDP and TCP on 127.0.0.1 when handed out, and never handed out twice
/// in one test run (the kernel could otherwise give the same port to two tests before either binds it).
package enum FreePort {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var handedOut = Set<UInt16>()

    /// A port free for both UDP and TCP on 127.0.0.1, chosen below the kernel's ephemeral range as
    /// `udpRange` chooses: a port handed out by bind(0) is an ephemeral one, which any connect() of the
    /// other shard could take before the test's peer binds it (2026-12-02: a simulated panel found the
    /// port `udpAndTCP` had given it in use, 0.8 s later).
    package static func udpAndTCP() throws -> UInt16 {
        for _ in 0..<200 {
            let port = UInt16.random(in: 10_000...32_000)
            guard bindAndRead(type: tcp, port: port) != nil, bindAndRead(type: udp, port: port) != nil else { continue }
            if claim([port]) { return port }
        }
        throw HarnessError("no free UDP+TCP port on 127.0.0.1")
    }

    /// `count` consecutive UDP ports starting at an even port (RTP/RTCP pairs: audio at base, video at base+2).
    /// Chosen below the kernel's ephemeral range so that bind(0) elsewhere cannot take them.
    package static func udpRange(count: Int = 4) throws -> UInt16 {
        for _ in 0..<200 {
            let base = UInt16.random(in: 10_000...30_000) & ~1
            let ports = (0..<count).map { base + UInt16($0) }
            guard ports.allSatisfy({ bindAndRead(type: udp, port: $0) != nil }) else { continue }
            if claim(ports) { return base }
        }
        throw HarnessError("no free range of \(count) UDP ports on 127.0.0.1")
    }

    /// True if something on 127.0.0.1 already holds the UDP port (e.g. a peer is up and listening).
    package static func isUDPBound(_ port: UInt16) -> Bool {
        bindAndRead(type: udp, port: port) == nil
    }

    /// A loopback address 127.0.X.Y (X ≥ 1, so never one of the 127.0.0.Z a test picks for a phone)
    /// whose `port` is free for both UDP and TCP: for a peer that must sit on a well-known port.
    package static func loopbackHostWithFreePort(_ port: UInt16) throws -> String {
        for _ in 0..<50 {
            let host = "127.0.\(Int.random(in: 1...254)).\(Int.random(in: 1...254))"
            guard bindAndRead(type: tcp, host: host, port: port) != nil,
                  bindAndRead(type: udp, host: host, port: port) != nil else { continue }
            return host
        }
        throw HarnessError("no loopback address 127.0.X.Y with port \(port) free for UDP and TCP")
    }

    #if os(Linux)
    private static let tcp = Int32(SOCK_STREAM.rawValue)
    private static let udp = Int32(SOCK_DGRAM.rawValue)
    #else
    private static let tcp = SOCK_STREAM
    private static let udp = SOCK_DGRAM
    #endif

    private static func claim(_ ports: [UInt16]) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard handedOut.isDisjoint(with: ports) else { return false }
        handedOut.formUnion(ports)
        return true
    }

    /// Binds a socket of `type` to `host`:`port`, returns the bound port, closes it. nil if bind fails.
    private static func bindAndRead(type: Int32, host: String = "127.0.0.1", port: UInt16) -> UInt16? {
        let fd = socket(AF_INET, type, 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard LoopbackAddress.with(host, port: port, { bind(fd, $0, $1) }) == 0 else { return nil }
        return LoopbackAddress.boundPort(fd)
    }
}
