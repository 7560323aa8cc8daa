import Foundation
import IntercomCLI
import IntercomSimulator
import Synchronization
import IntercomBase
import IntercomPhone

/// `intercom simulate-panel`: a simulated Beward panel alone (HTTP CGI + a SIP caller), for
/// trying a real client setup without hardware. One line per happening on stdout.
enum SimulatePanelCommand {
    static let spec = CommandSpec(
        name: "simulate-panel",
        options: [
            .value("--http-port", "N", "HTTP port (default 0 = any free port)"),
            .value("--sip-port", "N", "SIP UDP port on 127.0.0.1 (default 0 = any free port)"),
            .value("--rtsp-port", "N", "RTSP port of the camera on 127.0.0.1 (default 0 = any free port)"),
            .flag("--no-rtsp", "no RTSP camera (rtsp_cgi then says RtspSwitch=close)"),
            .value("--user", "USER", "HTTP user (default admin)"),
            .value("--password", "PASSWORD", "HTTP password (default admin)"),
            .value("--auth", "MODE", "HTTP auth: digest (default), basic or both", choices: ["digest", "basic", "both"]),
            .value("--model", "MODEL", "DeviceModel in systeminfo_cgi (default DKS15120_rev5.2.4.2; DS… has no intercom_cgi)"),
            .value("--call", "URI", "SIP URI to ring, e.g. sip:intercom@127.0.0.1:5060 (without it: no calls)"),
            .value("--ring-every", "SECONDS", "ring again this long after each call ends (default: ring once)"),
            .flag("--ring-on-signal", "with --call: no ring at start; the first ring comes with SIGUSR1"),
            .value("--ring-for", "SECONDS", "cancel an unanswered call after this long (default 60, like a panel)"),
            .value("--delay-ms", "N", "delay every HTTP response by N ms"),
            .flag("--broken-jpeg", "images_cgi sends bytes that are not a JPEG"),
            .flag("--truncated-jpeg", "images_cgi sends half a JPEG"),
            .flag("--server-error", "every CGI answers 500 Internal Server Error"),
            .flag("--no-alarm-stream", "firmware without alarmchangestate_cgi (200 and \"… is not defined\")"),
            .value("--keep-alive-ms", "N", "a blank line on an idle alarm stream every N ms (default 0: never, as real panels)"),
            .value("--relays", "N", "DS relays 1-3 (default 3); a DS refuses the others in its own words"),
            .flag("--dks-relay-alarm", "a DKS reports its door relays on the alarm stream too (default: DS only)"),
            .value("--snapshot-size", "WxH", "images_cgi picture size (default 1280x720, a DKS main stream)"),
            .value("--syslog", "udp:HOST:PORT", "send the panel's syslog lines there (as rsyslog_cgi does): on a call and a DTMF opening, and each line typed on stdin: key ID, code CODE, button main|alt, handset FLAT, calling FLAT, answered FLAT"),
            .value("--count", "N", "run N panels (1-256) in one process: panel-01…, ports from each base port up, SIP users 100001 up; no RTSP unless --rtsp-port"),
            .value("--events", "FORMAT", "text (default): a line per happening; json: one JSON object per line",
                   choices: ["text", "json"]),
        ],
        details: """
        The panel calls as sip:100001@127.0.0.1, offers PCMA/PCMU and H.264/VP8 and sends its porch
        scene as video. DTMF 1, 2, 3 in a call open the main door, the second door and the light
        (repeats within 2 s count once), as intercom_cgi?action=maindoor|altdoor|light does over HTTP.
        Calls made to the panel (a live view) are answered with video.
        The camera is served over RTSP like a panel's: rtsp://127.0.0.1:PORT/av0_0 (640x480) and /av0_1
        (352x288), H.264 at 25 fps with a key frame every second plus a PCMA track of silence, the porch scene
        with its clock moving, behind the same user, password and --auth as HTTP (interleaved TCP or UDP).
        Lines: "http listening on URL (user U, AUTH)", "rtsp listening on URL (sub URL)",
        "sip listening on udp:127.0.0.1:PORT (calls as URI)",
        "calling URI", "ringing", "incoming call from URI", "call answered (CODECS)", "dtmf received: D",
        "door opened: DOOR (http|dtmf)", "call ended: REASON", "stopped". With --events json the same
        happenings are objects: http_listening, rtsp_listening (url, sub_url), sip_listening, calling, ringing, call_incoming,
        call_answered, dtmf, door_opened, call_ended, stopped (each with "event" and "time").
        SIGUSR1 rings --call at once (with --ring-on-signal, that is the first ring: `intercom demo` sends
        it once its screen is up). SIGTERM or SIGINT hangs up and exits 0.
        With --count N: panel I (1-based) is named panel-NN (I with at least two digits: panel-07), calls as SIP user
        100000+I and listens on --http-port+I-1, --sip-port+I-1 (and --rtsp-port+I-1) — or on free ports
        when a base port is 0 (the default); it has an RTSP camera only when --rtsp-port is given. One line
        per panel: "panel NAME http URL sip udp:127.0.0.1:PORT from URI" (json: panel with name, url,
        listen, from, rtsp), then "panels ready: N"; each happening after that starts with "NAME: " (json:
        a "panel" field). Nothing rings by itself: the line "ring NAME" (or "ring I") on stdin rings --call
        from that panel, "hangup NAME" ends its call; SIGUSR1 rings from panel-01.
        """,
        run: run)

    struct Settings {
        var http = SimulatedPanelOptions()
        var sip = SimulatedPanelSIPOptions()
        var call: String?
        var ringEvery: Duration?
        var ringOnSignal = false
        var json = false
        /// `--count`: panels in this process (1 = the single panel as before).
        var count = 1
        /// `--syslog`: where the panel's syslog lines go.
        var syslog: SimulatedSyslog?
    }

    /// Reads the options; the error is the one line for exit 64.
    static func settings(_ arguments: ParsedArguments) throws(UsageError) -> Settings {
        func fail(_ message: String) -> UsageError { UsageError(message: message, command: "simulate-panel") }
        func port(_ name: String) throws(UsageError) -> UInt16 {
            guard let text = arguments.value(name) else { return 0 }
            guard let value = UInt16(text) else { throw fail("option '\(name)' takes a port 0-65535, not '\(text)'") }
            return value
        }
        func seconds(_ name: String) throws(UsageError) -> Duration? {
            guard let text = arguments.value(name) else { return nil }
            guard let value = Double(text), value.isFinite, value > 0, value <= 86_400 else {
                throw fail("option '\(name)' takes a number of seconds above 0, not '\(text)'")
            }
            return .milliseconds(Int((value * 1000).rounded()))
        }
        var s = Settings()
        s.http.port = try port("--http-port")
        s.sip.listen.port = Int(try port("--sip-port"))
        if arguments.has("--no-rtsp") {
            guard arguments.value("--rtsp-port") == nil else { throw fail("choose one of --rtsp-port and --no-rtsp") }
            s.http.rtspPort = nil
        } else {
            s.http.rtspPort = try port("--rtsp-port")
        }
        if let user = arguments.value("--user") {
            guard !user.isEmpty, !user.contains(":") else { throw fail("option '--user' takes a name without ':'") }
            s.http.user = user
        }
        if let password = arguments.value("--password") { s.http.password = password }
        if let auth = arguments.value("--auth") { s.http.auth = SimulatedPanelOptions.Auth(rawValue: auth) ?? .digest }
        if let model = arguments.value("--model") {
            guard !model.isEmpty, model.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline }) else {
                throw fail("option '--model' takes a model name like DKS15120_rev5.2.4.2, not '\(model)'")
            }
            s.http.deviceModel = model
        }
        if let delay = arguments.value("--delay-ms") {
            guard let ms = Int(delay), ms >= 0, ms <= 600_000 else {
                throw fail("option '--delay-ms' takes milliseconds 0-600000, not '\(delay)'")
            }
            s.http.delayMs = ms
        }
        s.http.brokenJPEG = arguments.has("--broken-jpeg")
        s.http.truncatedJPEG = arguments.has("--truncated-jpeg")
        s.http.serverError = arguments.has("--server-error")
        try firmwareQuirks(arguments, into: &s.http, fail: fail)
        if s.http.brokenJPEG && s.http.truncatedJPEG {
            throw fail("choose one of --broken-jpeg and --truncated-jpeg")
        }
        if let uri = arguments.value("--call") {
            guard !uri.contains(where: { $0.isWhitespace || $0 == "<" }), SIPURI(parsing: uri) != nil else {
                throw fail("option '--call' takes a SIP URI like sip:intercom@127.0.0.1:5060, not '\(uri)'")
            }
            s.call = uri
        }
        s.ringEvery = try seconds("--ring-every")
        if let ringFor = try seconds("--ring-for") { s.sip.ringTimeout = ringFor }
        if s.ringEvery != nil && s.call == nil { throw fail("--ring-every needs --call URI") }
        s.ringOnSignal = arguments.has("--ring-on-signal")
        if s.ringOnSignal && s.call == nil { throw fail("--ring-on-signal needs --call URI") }
        s.json = arguments.value("--events") == "json"
        if let text = arguments.value("--count") {
            guard let count = Int(text), count >= 1, count <= 256 else {
                throw fail("option '--count' takes a number of panels 1-256, not '\(text)'")
            }
            s.count = count
        }
        s.syslog = try syslogSender(arguments, fail: fail)
        if s.count > 1 {
            if s.syslog != nil { throw fail("--syslog works with one panel") }
            if s.ringEvery != nil || s.ringOnSignal {
                throw fail("--ring-every and --ring-on-signal work with one panel; with --count, 'ring NAME' on stdin rings")
            }
            // Many GStreamer RTSP servers are heavy: only when asked for.
            if arguments.value("--rtsp-port") == nil { s.http.rtspPort = nil }
            for (name, base) in [("--http-port", Int(s.http.port)), ("--sip-port", s.sip.listen.port),
                                 ("--rtsp-port", Int(s.http.rtspPort ?? 0))] where base != 0 && base + s.count - 1 > 65_535 {
                throw fail("option '\(name)' \(base) with --count \(s.count) runs past port 65535")
            }
        }
        return s
    }

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let settings: Settings
        do {
            settings = try Self.settings(invocation.arguments)
        } catch {
            return Console.fail(error.description, code: ExitCode.usage)
        }
        if settings.count > 1 { return await SimulatePanelFleetRun.run(settings, logger: invocation.logger) }
        let printer = LinePrinter(json: settings.json)
        let signals = SignalWatcher([SIGTERM, SIGINT, SIGUSR1])
        let panel: SimulatedPanel
        do {
            panel = try await SimulatedPanel.start(options: settings.http, sip: settings.sip, logger: invocation.logger)
        } catch let error as SimulatorError {
            if case .cannotStartRTSP = error {
                return Console.fail("\(error.description); choose another --rtsp-port (0 picks a free one) or --no-rtsp",
                                    code: ExitCode.unavailable)
            }
            return Console.fail("\(error.description); choose another --http-port (0 picks a free one)",
                                code: ExitCode.unavailable)
        } catch let error as PhoneError {
            let hint = error.exitCode == ExitCode.unavailable ? "; choose another --sip-port (0 picks a free one)" : ""
            return Console.fail(error.description.replacingOccurrences(of: "; stop the other program or change [sip] listen", with: "") + hint,
                                code: error.exitCode)
        } catch {
            return Console.fail("the simulated panel failed to start: \(error)", code: ExitCode.failure)
        }

        printer.httpListening(url: panel.http.baseURL, user: settings.http.user, auth: settings.http.auth.rawValue)
        if let rtsp = panel.rtsp { printer.rtspListening(url: rtsp.url(.main), subURL: rtsp.url(.sub)) }
        printer.sipListening(listen: panel.sipListening.description, from: panel.sipURI)

        let stopping = StopFlag()
        let call = settings.call
        let ringEvery = settings.ringEvery
        let syslog = settings.syslog
        let typed = syslog.map { syslog in Task { await sendTypedLines(syslog, printer) } }
        let events = Task {
            for await event in panel.events {
                printer.print(event)
                if let syslog, let happening = SimulatedSyslog.happening(for: event, flat: syslogFlat) { syslog.send(happening) }
                if case .ended = event, let call, let ringEvery, !stopping.isSet {
                    Task {
                        try? await Task.sleep(for: ringEvery)
                        guard !stopping.isSet else { return }
                        await ring(panel, call, printer)
                    }
                }
            }
        }
        if let call, !settings.ringOnSignal {
            do {
                try await panel.ring(call)
            } catch {
                await panel.stop()
                await events.value
                let code = (error as? PhoneError)?.exitCode ?? ExitCode.failure
                return Console.fail("cannot call \(call): \(error)", code: code)
            }
        }
        for await signal in signals.signals {
            guard signal == SIGUSR1 else { break }
            if let call { await ring(panel, call, printer) }
        }
        stopping.set()
        // Its stdin thread may still be reading; the process ends with it.
        typed?.cancel()
        await typed?.value
        await panel.stop()
        await events.value
        printer.stopped()
        return ExitCode.ok
    }

    private static func ring(_ panel: SimulatedPanel, _ uri: String, _ printer: LinePrinter) async {
        do {
            try await panel.ring(uri)
        } catch {
            printer.error("cannot call \(uri): \(error)")
        }
    }
}
