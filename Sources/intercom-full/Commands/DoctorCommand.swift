import Foundation
import IntercomCLI
import IntercomDaemon
import IntercomCore
import IntercomTUI
import IntercomBase
import IntercomMQTT
import IntercomPanel
import IntercomPhone

/// `intercom doctor`: checks what a working intercom needs and says what to fix.
enum DoctorCommand {
    static let spec = CommandSpec(
        name: "doctor",
        options: [.value("--graphics", "MODE", "check this graphics mode instead of detecting one",
                         choices: ["auto", "kitty", "sixel", "iterm", "symbols", "ascii"])],
        details: """
            Asks the control socket first: with the daemon running it says "running, pid N" and takes the
            SIP listening and registration from the daemon instead of starting a phone of its own (whose
            port would be the daemon's). Lines marked !! are problems or warnings; -- are notices (no
            daemon, no desktop bus). It exits 0 when nothing but warnings was found, so a unit's
            ExecStartPre or a health check can run it beside the daemon; else with the most telling
            problem's code: 77 a password or login refused, 69 a panel, stream, broker, registrar or
            port unavailable (or a socket that does not answer), 65 a config error, 1 anything else.
            """,
        run: run)

    /// One finding: ok, or a problem with the exit code it stands for.
    struct Finding {
        var ok: Bool
        var text: String
        var code: Int32 = ExitCode.ok
    }

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        var findings: [Finding] = []
        func report(_ finding: Finding) {
            findings.append(finding)
            // Findings quote panels (model names, errors) and servers (registration reasons).
            Console.out("\(finding.ok ? "  ok " : "  !! ") \(TerminalSafe.escape(finding.text))")
        }

        Console.out("config")
        let location = ConfigLoader.resolvePath(explicit: invocation.arguments.value("--config"), environment: invocation.environment)
        let config: IntercomConfig
        do {
            let loaded = try ConfigLoader.load(explicit: invocation.arguments.value("--config"), environment: invocation.environment)
            config = loaded.config
            report(Finding(ok: true, text: "\(config.path ?? "no config file (\(location.path ?? "no HOME")); using defaults")"
                + ", \(config.panels.count) panel(s)" + (config.operators.isEmpty ? "" : ", \(config.operators.count) operator(s)")))
            for warning in loaded.warnings { report(Finding(ok: false, text: warning.description, code: ExitCode.ok)) }
        } catch {
            report(Finding(ok: false, text: error.description, code: error.exitCode))
            return summary(findings)
        }

        Console.out("state")
        report(stateFolder(invocation.environment))
        if let switches = savedSwitches(invocation.environment) { report(switches) }

        Console.out("daemon")
        let daemon = daemonCheck(config, report: report)

        Console.out("panels")
        if config.panels.isEmpty && config.operators.isEmpty {
            report(Finding(ok: false, text: "no [panel NAME] section: see 'intercom config --example'"))
        }
        var answering: [PanelConfig] = []
        var answeringClients: [BewardPanel] = []
        for panel in config.panels {
            if let warning = callBackFinding(panel) { report(warning) }
            let client: BewardPanel
            do {
                client = try BewardPanel(panelConfig: panel)
            } catch {
                report(Finding(ok: false, text: "\(panel.name): \(error)", code: error.exitCode))
                continue
            }
            do {
                let info = try await client.systemInfo()
                let family = try await client.detectFamily()
                report(Finding(ok: true, text: "\(panel.name): \(panel.url) answers, user \(panel.user) accepted"
                    + "\(authNote(client)), model \(info["DeviceModel"] ?? "?") (\(family.rawValue))"))
                answering.append(panel)
                answeringClients.append(client)
            } catch {
                // The Basic-only refusal names the scheme itself.
                let note = error == .basicAuthOnly(panel: panel.name) ? "" : authNote(client, auth: panel.auth)
                report(Finding(ok: false, text: "\(panel.name): \(error)\(note)", code: error.exitCode))
            }
        }

        for finding in await panelSettingsFindings(Array(zip(answeringClients, answering))) { report(finding) }

        if answering.contains(where: { $0.rtspURL != nil }) {
            Console.out("streams")
            for finding in await streamFindings(answering) { report(finding) }
        }

        if !config.hooks.isEmpty {
            Console.out("hooks")
            for finding in hookFindings(config.hooks) { report(finding) }
        }

        if !config.operators.isEmpty {
            Console.out("operators")
            for finding in await OperatorCheck.run(config, environment: invocation.environment) {
                report(Finding(ok: finding.ok, text: finding.text, code: finding.code))
            }
        }

        if let mqtt = config.mqtt {
            Console.out("mqtt")
            // The config loaded, so a ca_file named for mqtts:// is a readable PEM certificate.
            let trust = mqtt.tls ? ", verified against " + (mqtt.caFile.map { "ca_file \($0) (a readable PEM certificate)" } ?? "the system store") : ""
            report(Finding(ok: true, text: "broker \(mqtt.url)\(trust)"))
            // It answers, and takes the login (issue 25).
            report(await mqttFinding(mqtt))
            let topics = MQTTTopics(settings: mqtt, host: MQTTTopics.machineName())
            for warning in MQTTExposure.warnings(mqtt, topics: topics, panels: config.panels.map(\.name), operators: !config.operators.isEmpty) {
                report(Finding(ok: false, text: warning, code: ExitCode.ok))
            }
        }

        if let site = config.site {
            Console.out("site")
            report(await siteFinding(site))
        }

        Console.out("sip")
        if let warning = ListenReach.loopbackOnlyWarning(config) {
            report(Finding(ok: false, text: warning, code: ExitCode.ok))
        }
        if let daemon {
            // Its port is the daemon's; its sound devices are checked while it is stopped.
            for finding in daemonSIPFindings(daemon) { report(finding) }
            Console.out("audio")
            Console.out("  --  the daemon holds the phone: stop it to have doctor list the sound devices")
        } else {
            await phoneCheck(config, environment: invocation.environment, report: report)
        }

        Console.out("notifications")
        // A missing bus is a notice, not a problem: a daemon on a server has no desktop to tell.
        let desktop = await DesktopNotifier.check(mode: config.notify.desktop, environment: invocation.environment)
        if desktop.ok {
            report(Finding(ok: true, text: desktop.text))
        } else {
            Console.out("  --  \(TerminalSafe.escape(desktop.text))")
        }

        Console.out("terminal")
        let capabilities = TerminalCapabilities.detect(environment: invocation.environment)
        let override = invocation.arguments.value("--graphics").flatMap { $0 == "auto" ? nil : $0 }
        for line in capabilities.report(override: override).split(separator: "\n") { Console.out("      \(line)") }
        for problem in PictureLibraries.problems { report(Finding(ok: false, text: problem, code: ExitCode.unavailable)) }
        let escape = capabilities.notificationEscape
        Console.out("      notifications: \(escape.escape?.rawValue ?? "bell") — \(escape.reason)"
            + " ([notify] terminal = \(config.notify.terminal.rawValue))")
        return summary(findings)
    }

    /// Starts a phone of doctor's own (no daemon answered): can it listen, register, and which
    /// sound devices it sees.
    private static func phoneCheck(_ config: IntercomConfig, environment: [String: String], report: (Finding) -> Void) async {
        var settings = PhoneSettings(config: config, environment: environment)
        // A private mkdtemp folder: the phone's plugin folder goes in it (PrivateTemporaryDirectory).
        let work: PrivateTemporaryDirectory
        do {
            work = try PrivateTemporaryDirectory.make(prefix: "intercom-doctor")
        } catch {
            report(Finding(ok: false, text: error.description, code: error.exitCode))
            return
        }
        defer { work.remove() }
        settings.dataDirectory = work.path
        do {
            let phone = try await Phone.start(settings, logger: .silent)
            report(Finding(ok: true, text: "can listen on \(phone.listening.map(\.description).joined(separator: ", "))"))
            if let account = config.sip.account {
                report(await registration(phone, account: account, tls: config.sip.tls))
            }
            let devices = (try? await phone.audioDevices()) ?? []
            Console.out("audio")
            if let problem = SoundCheck.problem(devices) { report(Finding(ok: false, text: problem)) }
            for device in devices { report(Finding(ok: true, text: SoundCheck.describe(device))) }
            await phone.stop()
        } catch let error as PhoneError {
            // No daemon of this config answered its socket: the port is another program's.
            let socket = config.daemon.socketPath
            let hint = error.exitCode == ExitCode.unavailable
                ? " (no intercom daemon answers on \(socket): another program, or a daemon of another config, holds it)" : ""
            report(Finding(ok: false, text: error.description + hint, code: error.exitCode))
        } catch {
            report(Finding(ok: false, text: "\(error)", code: ExitCode.failure))
        }
    }

    /// The state folder, checked without changing it: do-not-disturb and guest switches and the
    /// operators' tokens are kept there, and a switch that cannot be kept is refused.
    static func stateFolder(_ environment: [String: String]) -> Finding {
        let path = StateDirectory.path(environment: environment)
        do {
            switch try StateDirectory.inspect(path) {
            case nil:
                return Finding(ok: true, text: "\(path): not made yet; made 0700 at the first switch or login")
            case .ready:
                return Finding(ok: true, text: "\(path): private (0700), writable")
            case .tooOpen(let mode):
                return Finding(ok: false, text: "\(path) has mode \(String(mode, radix: 8)), open to other users: "
                               + "intercom tightens it to 0700 when it next writes there, or run 'chmod 700 \(path)'")
            }
        } catch {
            return Finding(ok: false, text: "\(error); until then do-not-disturb and guest switches are refused "
                           + "(they would not outlive a restart)", code: ExitCode.failure)
        }
    }

    /// The saved switches, when the daemon would refuse to start on them (nil: fine, or none yet).
    static func savedSwitches(_ environment: [String: String]) -> Finding? {
        do {
            try PanelSwitchStore(environment: environment).check()
            return nil
        } catch {
            return Finding(ok: false, text: "\(error); until then the daemon and the terminal client do not start (exit 78)",
                           code: ExitCode.configuration)
        }
    }

    /// Which authentication the panel asked for, when it challenged us; on a failure also what we answer.
    private static func authNote(_ client: BewardPanel, auth: PanelAuth? = nil) -> String {
        let offered = client.authOffered
        guard !offered.isEmpty else { return "" }
        guard let auth else { return " (it asked for \(offered))" }
        let answered = auth == .basic ? "Digest or Basic" : "Digest only"
        return " (the panel asked for \(offered); auth = \(auth.rawValue) answers \(answered))"
    }

    private static func registration(_ phone: Phone, account configured: SIPAccount, tls: SIPTLSSettings) async -> Finding {
        let account = configured.identity
        let deadline = Date().addingTimeInterval(8)
        var iterator = phone.events.makeAsyncIterator()
        while Date() < deadline {
            guard let event = await iterator.next() else { break }
            if case .registration(_, let state, let reason) = event {
                switch state {
                case .registered: return Finding(ok: true, text: "registered as \(account)")
                case .failed:
                    let explained = await RegistrationDiagnosis.explain(reason, account: configured, tls: tls)
                    return Finding(ok: false, text: "registration of \(account) failed: \(explained ?? "no reason")",
                                   code: ExitCode.unavailable)
                default: continue
                }
            }
        }
        return Finding(ok: false, text: "no answer from the registrar for \(account) within 8 s", code: ExitCode.unavailable)
    }

    private static func summary(_ findings: [Finding]) -> Int32 {
        // A warning (a finding not ok whose code is 0) is said, but fails nothing.
        let problems = findings.filter { !$0.ok && $0.code != ExitCode.ok }
        let warnings = findings.filter { !$0.ok && $0.code == ExitCode.ok }.count
        let noted = warnings == 0 ? "" : ", \(warnings) warning(s)"
        Console.out(problems.isEmpty ? "all checks passed\(noted)" : "\(problems.count) problem(s)\(noted)")
        // The most telling code: auth, then unavailable, then config.
        for code in [ExitCode.authRefused, ExitCode.unavailable, ExitCode.dataError, ExitCode.failure]
            where problems.contains(where: { $0.code == code }) { return code }
        return ExitCode.ok
    }
}
