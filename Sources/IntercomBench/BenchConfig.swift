/// The config text the bench writes for its children: one place that spells the `[sip]` section
/// and a simulated panel's section (the simulators' admin/admin credentials).
enum BenchConfig {
    /// `[sip]` listening on loopback UDP (`port` 0: any free one), then `extra` lines.
    static func sip(port: Int = 0, _ extra: String...) -> String {
        (["[sip]", "listen = udp:127.0.0.1:\(port)"] + extra).joined(separator: "\n") + "\n"
    }

    /// `[panel NAME]` at `url`, then `extra` lines.
    static func panel(_ name: String, url: String, _ extra: String...) -> String {
        (["[panel \(name)]", "url = \(url)", "user = admin", "password = admin"] + extra).joined(separator: "\n") + "\n"
    }
}
