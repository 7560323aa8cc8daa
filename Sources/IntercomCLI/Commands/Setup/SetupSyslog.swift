import Foundation
import IntercomBase
import IntercomPanel
#if canImport(Glibc)
import Glibc
#endif

/// `intercom setup --syslog`: for each panel whose syslog the config hears (`[syslog]`, `[panel]
/// syslog`), the one panel setting that sends it here (`rsyslog_cgi`), read from the panel and
/// shown; set on the panel only with `--yes` or a confirmation, never silently, and read back.
enum SetupSyslog {
    static func run(_ invocation: Invocation, prompt: SetupPrompt = SetupPrompt()) async -> Int32 {
        let config: IntercomConfig
        do {
            config = try invocation.loadConfig()
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
        guard let listen = config.syslogListen else {
            return Console.fail("no panel's syslog is heard in \(config.path ?? "the config"): add a [syslog] section "
                                + "(listen = udp:0.0.0.0:5514) or 'syslog = on' in a [panel NAME]", code: ExitCode.dataError)
        }
        let given = invocation.arguments.value("--address")
        if let given, IPLiteral.bytes(given)?.count != 4 {
            return Console.fail("--address takes this machine's IPv4 address as the panel reaches it, not '\(given)'", code: ExitCode.usage)
        }
        let yes = invocation.arguments.has("--yes")
        var failed = false
        for panel in config.syslogPanels {
            guard let host = given ?? (isWildcard(listen.host) ? localAddress(towards: panel) : listen.host) else {
                Console.error("panel \(panel.name): no local address reaches \(panel.urlHost ?? panel.url); give it with --address HOST")
                failed = true
                continue
            }
            if isLoopback(host), !panel.sourceAddresses.allSatisfy(isLoopback) {
                Console.error("panel \(panel.name): [syslog] listen is on \(host), which the panel cannot reach; "
                              + "listen on udp:0.0.0.0:\(listen.port) or an address of this machine it reaches")
                failed = true
                continue
            }
            if await !setUp(panel, host: host, port: listen.port, yes: yes, prompt: prompt) { failed = true }
        }
        return failed ? ExitCode.failure : ExitCode.ok
    }

    /// Shows the panel's target and the one it needs; sets it when told to. False when it could not
    /// be read or set.
    private static func setUp(_ panel: PanelConfig, host: String, port: Int, yes: Bool, prompt: SetupPrompt) async -> Bool {
        let client: BewardPanel
        do {
            client = try BewardPanel(panelConfig: panel)
        } catch {
            Console.error("panel \(panel.name): \(error)")
            return false
        }
        let now: KeyValueBody?
        do {
            now = try await client.syslogTarget()
        } catch {
            Console.error("panel \(panel.name): cannot read rsyslog_cgi: \(error)")
            return false
        }
        guard let now else {
            Console.error("panel \(panel.name): its firmware has no rsyslog_cgi; its syslog cannot be sent here")
            return false
        }
        let shown = ["Enable", "Protocol", "ServerAddress", "ServerPort", "LogLevel"]
            .map { "\($0)=\(TerminalSafe.escape(now[$0] ?? "?"))" }.joined(separator: " ")
        Console.out("panel \(panel.name): rsyslog_cgi now \(shown)")
        if BewardPanel.syslogPoints(now, at: host, port: port) {
            Console.out("panel \(panel.name): already sends its syslog to \(host):\(port)")
            return true
        }
        let query = BewardPanel.syslogQuery(host: host, port: port)
        Console.out("panel \(panel.name): needs \(client.url(cgi: "rsyslog_cgi", query: query))")
        guard yes || prompt.confirm("set it on panel \(panel.name)?") else {
            Console.out("panel \(panel.name): not changed (run 'intercom setup --syslog --yes' to set it)")
            return true
        }
        do {
            try await client.setSyslogTarget(host: host, port: port)
            guard let after = try await client.syslogTarget(), BewardPanel.syslogPoints(after, at: host, port: port) else {
                Console.error("panel \(panel.name): rsyslog_cgi took the setting but reads back otherwise; set it in the panel's web interface")
                return false
            }
        } catch {
            Console.error("panel \(panel.name): cannot set rsyslog_cgi: \(error)")
            return false
        }
        Console.out("panel \(panel.name): set; it sends its syslog to \(host):\(port)")
        return true
    }

    private static func isWildcard(_ host: String) -> Bool { host == "0.0.0.0" || host == "::" || host.isEmpty }
    private static func isLoopback(_ host: String) -> Bool { host.hasPrefix("127.") || host == "::1" || host == "localhost" }

    /// This machine's IPv4 address on the route to the panel (a UDP socket connected to it sends nothing).
    static func localAddress(towards panel: PanelConfig) -> String? {
        guard let host = panel.sourceAddresses.first(where: { IPLiteral.bytes($0)?.count == 4 }) else { return nil }
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = UInt16(80).bigEndian
        guard host.withCString({ inet_pton(AF_INET, $0, &target.sin_addr) }) == 1,
              withUnsafePointer(to: &target, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                  connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }) == 0 else { return nil }
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        guard withUnsafeMutablePointer(to: &local, { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            getsockname(fd, $0, &length) } }) == 0 else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        guard inet_ntop(AF_INET, &local.sin_addr, &text, socklen_t(text.count)) != nil else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
