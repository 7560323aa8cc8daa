/// Whether panels can reach where the client listens: a config that listens on loopback only
/// while a panel lives elsewhere never hears that panel ring (the default listen address is
/// 127.0.0.1, so a hand-written config does this easily). `intercom doctor` says so.
public enum ListenReach {
    /// One line naming the panels that cannot call us and the fix, or nil when nothing is wrong.
    public static func loopbackOnlyWarning(_ config: IntercomConfig) -> String? {
        let listen = config.sip.listen
        guard !listen.isEmpty, listen.allSatisfy({ isLoopback($0.host) }) else { return nil }
        let outside = config.panels.filter { panel in panel.sourceAddresses.contains { !isLoopback($0) } }
        guard !outside.isEmpty else { return nil }
        let names = outside.map { "\($0.name) (\($0.sourceAddresses.joined(separator: ", ")))" }.joined(separator: ", ")
        let port = listen[0].port
        return "[sip] listen is loopback only (\(listen.map(\.description).joined(separator: ", "))), so "
            + "\(outside.count == 1 ? "panel" : "panels") \(names) cannot call this client; "
            + "listen where \(outside.count == 1 ? "it" : "they") can reach it, e.g. listen = \(listen[0].transport.rawValue):0.0.0.0:\(port)"
    }

    /// 127.0.0.0/8, ::1, an IPv4-mapped 127.x, or `localhost`; a host name is taken as not loopback.
    public static func isLoopback(_ host: String) -> Bool {
        if host.lowercased() == "localhost" { return true }
        guard let bytes = IPLiteral.bytes(host) else { return false }
        if bytes.count == 4 { return bytes[0] == 127 }
        if bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
        return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff && bytes[12] == 127
    }
}
