import Foundation
import IntercomBase
import IntercomPanel

/// `intercom setup`: the first-run wizard. Finds Beward panels (the addresses given, else this
/// host's local /24 networks on port 80), asks for each one's name and password and checks it
/// against the panel, and writes a config (0600) that listens where the panels can reach it. It
/// never changes a panel: it shows what to set in the panel's SIP settings instead.
public enum SetupCommand {
    public static let spec = CommandSpec(
        name: "setup",
        options: [
            .value("--scan", "HOST[:PORT],...", "ask these addresses instead of scanning this host's local networks"),
            .value("--listen", "ADDRESS", "the [sip] listen line to write (default udp:0.0.0.0:5060)"),
            .flag("--dry-run", "print the config instead of writing it"),
            .flag("--force", "replace an existing config file"),
        ],
        details: """
            Without --scan it asks every address of this host's local IPv4 networks (a /24 around
            each, port 80) for systeminfo_cgi, 32 at a time. Each panel found is checked with the
            user and password you give; a refused password can be typed again, an empty one skips
            the panel. The panel itself is never changed.
            """,
        run: run)

    /// One panel the user kept.
    struct Panel {
        var name: String
        var url: String
        var user: String
        var password: String
        var sipUser: String
    }

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let args = invocation.arguments
        let location = ConfigLoader.resolvePath(explicit: args.value("--config"), environment: invocation.environment)
        guard let path = location.path else {
            return Console.fail("no config path: set HOME or give --config PATH", code: ExitCode.usage)
        }
        let dryRun = args.has("--dry-run")
        if !dryRun, !args.has("--force"), FileManager.default.fileExists(atPath: path) {
            return Console.fail("\(path) exists; run with --force to replace it, or --dry-run to see the new one", code: ExitCode.usage)
        }
        let listenText = args.value("--listen") ?? "udp:0.0.0.0:5060"
        let listen: ListenAddress
        do {
            listen = try ListenAddress(parsing: listenText)
        } catch {
            return Console.fail("--listen: \(error)", code: ExitCode.usage)
        }

        let addresses = args.value("--scan").map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            ?? PanelProbe.localSubnetHosts()
        Console.out("looking for Beward panels at \(addresses.count) address(es)…")
        let found = await PanelProbe.find(addresses)
        guard !found.isEmpty else {
            return Console.fail("no Beward panel answered; give its address with --scan HOST (and check that this host reaches it)",
                                code: ExitCode.unavailable)
        }
        Console.out("found \(found.count) panel(s):")
        for (index, candidate) in found.enumerated() {
            Console.out("  \(index + 1). \(candidate.url)\(candidate.model.map { " (\($0), no password asked)" } ?? " (asks for a password)")")
        }

        let prompt = SetupPrompt()
        var panels: [Panel] = []
        for (index, candidate) in found.enumerated() {
            Console.out("")
            Console.out("panel \(index + 1) of \(found.count): \(candidate.url)")
            if let kept = await askPanel(candidate, number: index + 1, taken: panels.map(\.name), prompt: prompt) {
                panels.append(kept)
            }
        }
        guard !panels.isEmpty else {
            return Console.fail("no panel kept; nothing written", code: ExitCode.failure)
        }

        let text = configText(panels, listen: listen)
        do {
            _ = try ConfigLoader.parse(text: text)
        } catch {
            return Console.fail("the config made would not load (\(error.description)); nothing written", code: ExitCode.dataError)
        }
        if dryRun {
            Console.out("")
            Console.out(text)
        } else {
            do {
                try write(text, to: path)
            } catch {
                return Console.fail("cannot write \(path): \(error.localizedDescription)", code: ExitCode.failure)
            }
            Console.out("")
            Console.out("wrote \(path) (mode 0600) with \(panels.count) panel(s); check it with 'intercom config --check'")
        }
        explainPanelSide(panels, listen: listen)
        return ExitCode.ok
    }

    static func askPanel(_ candidate: PanelProbe.Candidate, number: Int, taken: [String], prompt: SetupPrompt) async -> Panel? {
        var name = prompt.ask("name", default: number == 1 ? "entrance" : "panel\(number)")
        while taken.contains(name.lowercased()) || name.contains(where: { $0.isWhitespace || $0 == "]" }) {
            name = prompt.ask("'\(name)' is taken or has a space or ']'; another name")
        }
        let user = prompt.ask("user", default: "admin")
        while true {
            let password = prompt.askSecret("password (empty skips this panel)")
            guard !password.isEmpty else {
                Console.out("skipped \(candidate.url)")
                return nil
            }
            do {
                let panel = try BewardPanel(name: name, baseURL: candidate.url, user: user, password: password)
                let info = try await panel.systemInfo()
                Console.out("ok: \(info["DeviceModel"] ?? "unknown model"), firmware \(info["SoftwareVersion"] ?? "?")")
                let sipUser = prompt.ask("the SIP user it calls from, e.g. 100001 (empty: any call from its address)")
                return Panel(name: name, url: candidate.url, user: user, password: password, sipUser: sipUser)
            } catch {
                Console.out("\(TerminalSafe.escape(error.description)); try again")
            }
        }
    }

    static func configText(_ panels: [Panel], listen: ListenAddress) -> String {
        var lines = ["# written by intercom setup; every key: intercom config --example, man intercom-config",
                     "[sip]", "listen = \(listen.description)"]
        for panel in panels {
            lines += ["", "[panel \(panel.name)]", "url = \(panel.url)", "user = \(value(panel.user))",
                      "password = \(value(panel.password))"]
            if !panel.sipUser.isEmpty { lines.append("match = sip:\(panel.sipUser)@") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A value the INI reader gives back as typed: quoted when it holds a comment mark or edge spaces.
    static func value(_ text: String) -> String {
        let needsQuotes = text.contains("#") || text.contains(";") || text != text.trimmingCharacters(in: .whitespaces)
        return needsQuotes ? "\"\(text)\"" : text
    }

    /// Written whole through a rename, born 0600 (it holds passwords).
    static func write(_ text: String, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let temporary = "\(path).setup-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown)
        }
    }

    /// What to set on each panel so it calls this client; the wizard does not change panels.
    static func explainPanelSide(_ panels: [Panel], listen: ListenAddress) {
        Console.out("")
        Console.out("To have a panel call this client, set in its web pages (SIP settings), for each panel:")
        for panel in panels {
            let host = PanelProbe.localAddress(facing: URL(string: panel.url)?.host ?? "") ?? "THIS-HOST"
            let port = listen.port == 0 ? 5060 : listen.port
            Console.out("  \(panel.name) (\(panel.url)): call sip:intercom@\(host):\(port) over \(listen.transport.rawValue.uppercased())")
        }
        Console.out("intercom setup changes nothing on the panels. A SmartYard operator: add [operator NAME], then 'intercom login NAME'.")
    }
}
