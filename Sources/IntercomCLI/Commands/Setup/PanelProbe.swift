import Foundation
import IntercomBase
import IntercomPanel

/// Finds Beward panels: asks each address for `systeminfo_cgi` without a password. A panel answers
/// with a challenge (or, unprotected, with its model); anything else is not a panel.
enum PanelProbe {
    struct Candidate: Sendable, Equatable {
        var url: String
        /// The model when the panel answered without a password.
        var model: String?
    }

    /// Probes `addresses` (HOST or HOST:PORT; port 80 by default), at most 32 at a time, each bounded
    /// by a short connect timeout; the panels found, in the order given.
    static func find(_ addresses: [String]) async -> [Candidate] {
        var found: [Int: Candidate] = [:]
        await withTaskGroup(of: (Int, Candidate?).self) { group in
            var next = 0
            func add() {
                guard next < addresses.count else { return }
                let index = next
                next += 1
                group.addTask { (index, await probe(addresses[index])) }
            }
            for _ in 0..<min(32, addresses.count) { add() }
            for await (index, candidate) in group {
                if let candidate { found[index] = candidate }
                add()
            }
        }
        return found.keys.sorted().compactMap { found[$0] }
    }

    static func probe(_ address: String) async -> Candidate? {
        let url = "http://\(address)"
        guard let panel = try? BewardPanel(name: "probe", baseURL: url, user: "admin", password: "",
                                           connectTimeout: .milliseconds(700), timeout: .seconds(2)) else { return nil }
        do {
            let info = try await panel.systemInfo()
            guard let model = info["DeviceModel"] else { return nil }
            return Candidate(url: url, model: model)
        } catch {
            switch error {
            case .authRefused, .basicAuthOnly: return Candidate(url: url, model: nil)
            default: return nil
            }
        }
    }

    /// This host's address on the way to `host` (a connected UDP socket's local end; nothing is sent).
    static func localAddress(facing host: String) -> String? {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, "5060", &hints, &result) == 0, let info = result else { return nil }
        defer { freeaddrinfo(result) }
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else { return nil }
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        var address = local.sin_addr
        guard inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
