import Foundation

/// Which networks `intercom setup` may look for panels in when no `--scan` is given: the /24
/// around this host's address on each physical interface holding a private IPv4 address
/// (10/8, 172.16/12, 192.168/16). Not loopback, not link-local, not public ranges (a scan there
/// would knock on strangers' doors), not container bridges, VM networks or VPN tunnels (docker*,
/// br-*, virbr*, veth*, tun*, tap*, wg*, …; and any point-to-point link): a panel is on the LAN.
/// A pure function of the interfaces, so its choice is tested without scanning anything.
struct ProbeRanges {
    /// One IPv4 address of an interface, as `getifaddrs` lists it.
    struct Interface: Sendable, Equatable {
        var name: String
        /// Host byte order: 192.168.1.20 is 0xC0A8_0114.
        var address: UInt32
        /// `IFF_*` flags.
        var flags: UInt32

        init(name: String, address: UInt32, flags: UInt32) {
            self.name = name
            self.address = address
            self.flags = flags
        }

        /// `"192.168.1.20"`; nil when it is not a dotted quad.
        init?(name: String, dotted: String, flags: UInt32) {
            let parts = dotted.split(separator: ".").compactMap { UInt32($0) }
            guard parts.count == 4, parts.allSatisfy({ $0 < 256 }) else { return nil }
            self.init(name: name, address: parts.reduce(0) { $0 << 8 | $1 }, flags: flags)
        }
    }

    /// A /24 to probe and the interface it was found on.
    struct Range: Sendable, Equatable, CustomStringConvertible {
        var network: UInt32
        var interface: String
        /// This host's own address in it, left out of the probe.
        var own: UInt32

        var description: String { "\(Self.dotted(network))/24 (\(interface))" }

        /// Every address of the /24 but the network, broadcast and this host's own.
        var hosts: [String] {
            (1...254).map { network | UInt32($0) }.filter { $0 != own }.map(Self.dotted)
        }

        static func dotted(_ value: UInt32) -> String {
            "\(value >> 24).\((value >> 16) & 0xFF).\((value >> 8) & 0xFF).\(value & 0xFF)"
        }
    }

    /// Name prefixes of virtual interfaces: container and VM bridges, veth pairs, tunnels, VPNs.
    static let virtualPrefixes = ["lo", "docker", "br-", "virbr", "veth", "tun", "tap", "wg", "vnet", "vboxnet",
                                  "vmnet", "lxc", "lxdbr", "cni", "flannel", "cali", "tailscale", "zt", "ppp"]

    /// The ranges to probe, in interface order, each /24 once.
    static func choose(_ interfaces: [Interface]) -> [Range] {
        var ranges: [Range] = []
        for interface in interfaces where isLAN(interface) {
            let network = interface.address & 0xFFFF_FF00
            guard !ranges.contains(where: { $0.network == network }) else { continue }
            ranges.append(Range(network: network, interface: interface.name, own: interface.address))
        }
        return ranges
    }

    static func isLAN(_ interface: Interface) -> Bool {
        let flags = interface.flags
        guard flags & UInt32(IFF_UP) != 0, flags & UInt32(IFF_LOOPBACK) == 0,
              flags & UInt32(IFF_POINTOPOINT) == 0 else { return false }
        let name = interface.name.lowercased()
        guard !virtualPrefixes.contains(where: { name.hasPrefix($0) }) else { return false }
        return isPrivate(interface.address)
    }

    /// RFC 1918 only: loopback (127/8), link-local (169.254/16) and public addresses are not.
    static func isPrivate(_ address: UInt32) -> Bool {
        address >> 24 == 10 || address >> 20 == 0xAC1 || address >> 16 == 0xC0A8
    }

    /// This host's IPv4 interfaces, from `getifaddrs`.
    static func localInterfaces() -> [Interface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var interfaces: [Interface] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let sockaddr = entry.pointee.ifa_addr, sockaddr.pointee.sa_family == UInt8(AF_INET),
                  let name = entry.pointee.ifa_name else { continue }
            let address = sockaddr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            interfaces.append(Interface(name: String(cString: name), address: address, flags: entry.pointee.ifa_flags))
        }
        return interfaces
    }
}
