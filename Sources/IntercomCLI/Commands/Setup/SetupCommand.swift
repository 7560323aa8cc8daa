import Foundation
import IntercomBase
import IntercomPanel

/// `intercom setup`: the first-run wizard. Finds Beward panels (the addresses given, else the /24s
/// of this host's physical interfaces with private addresses, on port 80: `ProbeRanges`), asks for each one's name and password and checks it
/// against the panel, and writes a config (0600) that listens where the panels can reach it. It
/// never changes a panel: it shows what to set in the panel's SIP settings instead.
public enum SetupCommand {
    /// `stream`: how a panel's camera stream is asked to describe itself (intercom-full: FFmpeg);
    /// without one no `rtsp =` is written.
    public static func spec(streamCheck: (@Sendable (_ url: String, _ user: String, _ password: String) async -> String?)?)
        -> CommandSpec {
        CommandSpec(
            name: "setup",
            options: [
                .value("--scan", "HOST[:PORT],...", "ask these addresses instead of scanning this host's local networks"),
                .value("--listen", "ADDRESS", "the [sip] listen line to write (default udp:0.0.0.0:5060)"),
                .flag("--dry-run", "print the config instead of writing it"),
                .flag("--force", "replace an existing config file"),
                .flag("--syslog", "show (and with --yes set) each heard panel's syslog target, rsyslog_cgi, to this machine ([syslog])"),
                .value("--address", "HOST", "with --syslog: this machine's IPv4 address as the panels reach it (default: the route's)"),
                .flag("--yes", "with --syslog: set rsyslog_cgi on the panels without asking"),
            ],
            details: """
                Without --scan it says which ranges it probes, then asks every address of the /24 around
                each private IPv4 address (10/8, 172.16/12, 192.168/16) of this host's physical
                interfaces (no loopback, link-local, public ranges, container bridges, VMs or VPNs)
                for systeminfo_cgi on port 80, 32 at a time. Each panel found is checked with the
                user and password you give; a refused password can be typed again, an empty one skips
                the panel. A fleet shares its login: the next panel offers the last user, and its
                password is tried there first without asking; it is asked only where that one is
                refused. The panel's SIP settings (sip_cgi) say which SIP user its calls come from
                (match) and where a call back reaches it (dial = sip:USER@ITS-ADDRESS; without a user
                none is written and doctor warns); its RTSP settings (rtsp_cgi) give the camera's
                port, and the stream is written (rtsp = URL) when it answers a DESCRIBE with the panel's user and password, else
                rtsp = off with the reason. The panel itself is never changed.
                With --syslog it writes no config: for each panel whose syslog the config hears ([syslog],
                [panel] syslog) it reads rsyslog_cgi, shows the one setting that sends the panel's syslog to
                [syslog] listen (Enable=on, Protocol=udp, ServerAddress, ServerPort, LogLevel=6) and sets it
                only when confirmed or with --yes, then reads it back.
                """,
            run: { await run($0, streamCheck: streamCheck) })
    }

    /// One panel the user kept.
    struct Panel {
        var name: String
        var url: String
        var user: String
        var password: String
        var sipUser: String
        var stream: SetupPanelFacts.Stream = .unknown
        /// The door digits the panel listens for (`sip_cgi` `DtmfSignal1/2`), when it said.
        var doorDigits = SetupPanelFacts.DoorDigits()
        /// Where a call back (`intercom call`, `ctl callback`) reaches the panel: its SIP user at
        /// its own address, once the user is known; empty: no `dial =` (doctor warns).
        var dial: String {
            let host = URLAddress(parsing: url)?.host ?? ""
            return sipUser.isEmpty ? "" : "sip:\(sipUser)@" + (host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host)
        }
    }

    static func run(_ invocation: Invocation, streamCheck: SetupPanelFacts.StreamCheck?) async -> Int32 {
        let args = invocation.arguments
        if args.has("--syslog") { return await SetupSyslog.run(invocation) }
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

        let addresses: [String]
        if let scan = args.value("--scan") {
            addresses = scan.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        } else {
            let ranges = ProbeRanges.choose(ProbeRanges.localInterfaces())
            guard !ranges.isEmpty else {
                return Console.fail("no physical interface with a private IPv4 address (10/8, 172.16/12, 192.168/16) to look for "
                                    + "panels on; give the panel's address with --scan HOST", code: ExitCode.unavailable)
            }
            Console.out("probing port 80 of \(ranges.map(\.description).joined(separator: ", ")); --scan HOST,... asks only the addresses given")
            addresses = ranges.flatMap(\.hosts)
        }
        Console.out("looking for Beward panels at \(addresses.count) address(es)…")
        let found = await PanelProbe.find(addresses)
        guard !found.isEmpty else {
            return Console.fail("no Beward panel answered; give its address with --scan HOST (and check that this host reaches it)",
                                code: ExitCode.unavailable)
        }
        Console.out("found \(found.count) panel(s):")
        for (index, candidate) in found.enumerated() {
            Console.out("  \(index + 1). \(candidate.url)\(candidate.model.map { " (\(TerminalSafe.escape($0)), no password asked)" } ?? " (asks for a password)")")
        }

        let prompt = SetupPrompt()
        var panels: [Panel] = []
        for (index, candidate) in found.enumerated() {
            Console.out("")
            Console.out("panel \(index + 1) of \(found.count): \(candidate.url)")
            if let kept = await askPanel(candidate, number: index + 1, kept: panels, prompt: prompt, streamCheck: streamCheck) {
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
                try SetupConfigFile.write(text, to: path)
            } catch {
                return Console.fail(error.description, code: ExitCode.failure)
            }
            Console.out("")
            Console.out("wrote \(path) (mode 0600) with \(panels.count) panel(s); check it with 'intercom config --check'")
        }
        explainPanelSide(panels, listen: listen)
        return ExitCode.ok
    }

    static func askPanel(_ candidate: PanelProbe.Candidate, number: Int, kept: [Panel], prompt: SetupPrompt,
                         streamCheck: SetupPanelFacts.StreamCheck?) async -> Panel? {
        let taken = kept.map { $0.name.lowercased() }
        var name = prompt.ask("name", default: number == 1 ? "entrance" : "panel\(number)")
        while taken.contains(name.lowercased()) || name.contains(where: { $0.isWhitespace || $0 == "]" }) {
            name = prompt.ask("'\(name)' is taken or has a space or ']'; another name")
        }
        // A fleet shares its login: the last panel's user is offered and its password tried first.
        let previous = kept.last
        let user = prompt.ask("user", default: previous?.user ?? "admin")
        var sharedLogin = previous.flatMap { $0.user == user ? $0 : nil }
        while true {
            // The last panel's login is tried once, without asking; every later try is typed.
            let fromLast = sharedLogin
            sharedLogin = nil
            let password = fromLast?.password ?? prompt.askSecret("password (empty skips this panel)")
            guard !password.isEmpty else {
                Console.out("skipped \(candidate.url)")
                return nil
            }
            do {
                let panel = try BewardPanel(name: name, baseURL: candidate.url, user: user, password: password)
                let info: KeyValueBody
                do {
                    info = try await panel.systemInfo()
                } catch let refused where fromLast != nil {
                    let name = fromLast?.name ?? "the last panel"
                    Console.out("\(TerminalSafe.escape(refused.description)) with the password of \(name); type this panel's")
                    continue
                }
                if let fromLast { Console.out("the password of \(fromLast.name) is accepted here too") }
                let model = TerminalSafe.escape(info["DeviceModel"] ?? "unknown model")
                Console.out("ok: \(model), firmware \(TerminalSafe.escape(info["SoftwareVersion"] ?? "?"))")
                let host = URLAddress(parsing: candidate.url)?.host ?? ""
                let facts = await SetupPanelFacts.read(panel, host: host, user: user, password: password, streamCheck: streamCheck)
                switch facts.stream {
                case .url(let url): Console.out("camera: \(url) answers with this user and password (rtsp)")
                case .off(let why): Console.out("camera: \(TerminalSafe.escape(why)); writing rtsp = off (watch shows snapshots)")
                case .unknown: break
                }
                let sipUser = sipUser(facts, host: host, sharedWith: kept.filter { URLAddress(parsing: $0.url)?.host == host }, prompt: prompt)
                if let digits = facts.doorDigits.described { Console.out("door digits: \(digits) (the panel's sip_cgi)") }
                return Panel(name: name, url: candidate.url, user: user, password: password, sipUser: sipUser,
                             stream: facts.stream, doorDigits: facts.doorDigits)
            } catch {
                Console.out("\(TerminalSafe.escape(error.description)); try again")
            }
        }
    }

    /// The SIP user the panel calls from, for `match`: what its SIP settings say; else nothing is
    /// needed while the panel has an address of its own (its calls are known by where they come
    /// from), and only a panel sharing its address with another is asked, in words a resident can
    /// follow.
    static func sipUser(_ facts: SetupPanelFacts, host: String, sharedWith others: [Panel], prompt: SetupPrompt) -> String {
        if let known = facts.sipUser {
            Console.out("calls come from SIP user \(known) (its SIP settings)")
            return known
        }
        guard !others.isEmpty else {
            Console.out("its SIP settings name no account: every call from \(host) will be taken as this panel's")
            return ""
        }
        return prompt.ask("\(others.map(\.name).joined(separator: ", ")) answers at \(host) too: which number does this panel "
                          + "call from? (its web page, SIP settings: the account's user name, e.g. 100001; empty: decide later)")
    }

    static func configText(_ panels: [Panel], listen: ListenAddress) -> String {
        var lines = ["# written by intercom setup; every key: intercom config --example, man intercom-config",
                     "[sip]", "listen = \(listen.description)"]
        for panel in panels {
            lines += ["", "[panel \(panel.name)]", "url = \(panel.url)", "user = \(value(panel.user))",
                      "password = \(value(panel.password))"]
            if !panel.sipUser.isEmpty { lines += ["match = sip:\(panel.sipUser)@", "dial = \(panel.dial)"] }
            // Only what differs from the defaults (1 and 2): the panel's own setting, read.
            if let main = panel.doorDigits.main, main != "1" { lines.append("dtmf.main = \(main)") }
            if let alt = panel.doorDigits.alt, alt != "2" { lines.append("dtmf.alt = \(alt)") }
            switch panel.stream {
            case .url(let url): lines.append("rtsp = \(url)")
            case .off(let why): lines += ["# \(why.replacingOccurrences(of: "\n", with: " "))", "rtsp = off"]
            case .unknown: break
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A value the INI reader gives back as typed: quoted when it holds a comment mark or edge spaces.
    static func value(_ text: String) -> String {
        let needsQuotes = text.contains("#") || text.contains(";") || text != text.trimmingCharacters(in: .whitespaces)
        return needsQuotes ? "\"\(text)\"" : text
    }

    /// What to set on each panel so it calls this client; the wizard does not change panels.
    static func explainPanelSide(_ panels: [Panel], listen: ListenAddress) {
        Console.out("")
        Console.out("To have a panel call this client, set in its web pages (SIP settings), for each panel:")
        for panel in panels {
            let host = PanelProbe.localAddress(facing: URLAddress(parsing: panel.url)?.host ?? "") ?? "THIS-HOST"
            let port = listen.port == 0 ? 5060 : listen.port
            Console.out("  \(panel.name) (\(panel.url)): call sip:intercom@\(host):\(port) over \(listen.transport.rawValue.uppercased())")
        }
        Console.out("intercom setup changes nothing on the panels. A SmartYard operator: add [operator NAME], then 'intercom login NAME'.")
    }
}
