import Foundation
import Testing
@testable import IntercomCLI
import IntercomTestSupport

/// `intercom setup` without `--scan`: which /24s it would probe, decided from the interface list
/// alone (no scan runs here: a test may only touch 127.0.0.0/8), and the config it writes is born
/// 0600.
@Suite("setup: probe ranges and the config's mode")
struct SetupProbeRangeTests {
    static let up = UInt32(IFF_UP | IFF_RUNNING | IFF_BROADCAST | IFF_MULTICAST)

    /// (name, address, flags, the /24 probed or nil).
    static let table: [(String, String, UInt32, String?)] = [
        ("eth0", "192.168.1.20", up, "192.168.1.0/24 (eth0)"),
        ("enp3s0", "10.0.5.7", up, "10.0.5.0/24 (enp3s0)"),
        ("wlan0", "172.16.9.3", up, "172.16.9.0/24 (wlan0)"),
        ("wlp2s0", "172.31.255.9", up, "172.31.255.0/24 (wlp2s0)"),
        ("br0", "192.168.2.5", up, "192.168.2.0/24 (br0)"),
        ("eth1", "172.32.0.5", up, nil),                       // just past 172.16/12: public
        ("eth2", "8.8.4.4", up, nil),                          // public
        ("eth3", "100.64.1.2", up, nil),                       // carrier-grade NAT, not RFC 1918
        ("eth4", "169.254.10.1", up, nil),                     // link-local
        ("eth5", "192.168.7.9", UInt32(IFF_BROADCAST), nil),   // down
        ("lo", "127.0.0.1", up | UInt32(IFF_LOOPBACK), nil),
        ("eth6", "127.0.1.1", up, nil),                        // loopback range on any name
        ("docker0", "172.17.0.1", up, nil),
        ("br-5f2a1c", "172.18.0.1", up, nil),
        ("virbr0", "192.168.122.1", up, nil),
        ("veth12ab", "10.1.0.1", up, nil),
        ("tun0", "10.8.0.2", up, nil),
        ("tap0", "10.9.0.2", up, nil),
        ("wg0", "10.66.0.2", up, nil),
        ("vpn0", "10.77.0.2", up | UInt32(IFF_POINTOPOINT), nil),  // any point-to-point link
        ("eth7", "192.168.1.21", up, nil),                     // a second address in a /24 already chosen
    ]

    @Test("a table of interfaces: only physical ones with private addresses, each /24 once")
    func choosesPhysicalPrivateNetworks() throws {
        var interfaces: [ProbeRanges.Interface] = []
        for (name, dotted, flags, _) in Self.table {
            interfaces.append(try #require(ProbeRanges.Interface(name: name, dotted: dotted, flags: flags)))
        }
        let chosen = ProbeRanges.choose(interfaces).map(\.description)
        #expect(chosen == Self.table.compactMap(\.3))
        for (index, row) in Self.table.enumerated() {
            let alone = ProbeRanges.choose([interfaces[index]]).map(\.description)
            #expect(alone == (row.3.map { [$0] } ?? (row.0 == "eth7" ? ["192.168.1.0/24 (eth7)"] : [])), "\(row)")
        }
    }

    @Test("a /24 lists its 253 other hosts, never this host, the network or the broadcast")
    func hostsOfARange() throws {
        let interface = try #require(ProbeRanges.Interface(name: "eth0", dotted: "192.168.1.20", flags: Self.up))
        let hosts = try #require(ProbeRanges.choose([interface]).first).hosts
        #expect(hosts.count == 253 && hosts.first == "192.168.1.1" && hosts.last == "192.168.1.254")
        #expect(!hosts.contains("192.168.1.20") && !hosts.contains("192.168.1.0") && !hosts.contains("192.168.1.255"))
    }

    /// The mode is read with fstat on the descriptor open(2) returned, before anything else
    /// touches the file: a create-then-chmod would show the wider mode here. (The umask is left
    /// alone: it is the whole test process's, and other tests create files meanwhile.)
    @Test("the config file is created 0600 by open(2) itself, and written whole")
    func configBornPrivate() throws {
        let directory = try TestDirectory(prefix: "intercom-setup-mode")
        let fresh = directory.file("fresh").path
        let fd = try SetupConfigFile.create(fresh)
        var info = stat()
        #expect(fstat(fd, &info) == 0 && info.st_mode & 0o777 == 0o600, "born \(String(info.st_mode & 0o777, radix: 8))")
        close(fd)
        #expect(throws: SetupConfigFile.WriteError.self, "an existing file is never reused") { _ = try SetupConfigFile.create(fresh) }

        let path = directory.path + "/sub/config.ini"
        try SetupConfigFile.write("[sip]\nlisten = udp:127.0.0.1:0\n", to: path)
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "[sip]\nlisten = udp:127.0.0.1:0\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path + "/sub") == ["config.ini"], "no temporary left")
    }
}
