import IntercomBase

/// The panel's syslog target (`rsyslog_cgi`), the one setting `intercom setup --syslog` shows and,
/// only when asked, changes: the parameters SmartYard-Server's Beward drivers send (`Enable=on`,
/// `Protocol=udp`, `ServerAddress`, `ServerPort`, `LogLevel=6`).
extension BewardPanel {
    /// `rsyslog_cgi?action=get`: `Enable`, `Protocol`, `ServerAddress`, `ServerPort`, `LogLevel`.
    /// Nil on firmware without the page.
    public func syslogTarget() async throws(PanelError) -> KeyValueBody? {
        do {
            return KeyValueBody(parsing: try await request(cgi: "rsyslog_cgi", query: "action=get").text)
        } catch .unsupported {
            return nil
        }
    }

    /// Points the panel's syslog at `host:port` (UDP, informational level). `host` must be an IP
    /// address: the panel resolves no names of ours.
    public func setSyslogTarget(host: String, port: Int) async throws(PanelError) {
        _ = try await request(cgi: "rsyslog_cgi", query: Self.syslogQuery(host: host, port: port))
    }

    /// The query that sets the target, as `setup --syslog` shows it before asking.
    public static func syslogQuery(host: String, port: Int) -> String {
        "action=set&Enable=on&Protocol=udp&ServerAddress=\(host)&ServerPort=\(port)&LogLevel=6"
    }

    /// Whether `target` (the page read back) already sends to `host:port` over UDP.
    public static func syslogPoints(_ target: KeyValueBody, at host: String, port: Int) -> Bool {
        target["Enable"]?.trimmingCharacters(in: .whitespaces) == "on"
            && target["ServerAddress"]?.trimmingCharacters(in: .whitespaces) == host
            && target["ServerPort"]?.trimmingCharacters(in: .whitespaces) == String(port)
            && (target["Protocol"]?.trimmingCharacters(in: .whitespaces).lowercased() ?? "udp") == "udp"
    }
}
