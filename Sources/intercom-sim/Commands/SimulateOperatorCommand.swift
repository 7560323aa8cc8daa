import Foundation
import IntercomBase
import IntercomCLI
import IntercomSimulator

/// `intercom simulate-operator`: a simulated SmartYard operator (the subscriber's mobile API) whose
/// doors drive a simulated Beward panel, for trying and testing operator mode without an operator.
/// One line per happening on stdout.
enum SimulateOperatorCommand {
    static let spec = CommandSpec(
        name: "simulate-operator",
        options: [
            .value("--listen", "HOST:PORT", "where the API listens (default 127.0.0.1:0 = any free port; [::1]:PORT for IPv6)"),
            .value("--phone", "NUMBER", "the test phone, 11 digits (default 79123456781); its code is 1001"),
            .value("--resident", "NUMBER", "a second subscriber of the flat who is not its owner (code 1002): may add a guest, not remove one"),
            .value("--confirm-method", "METHOD", "how logins are confirmed when the app names no method: outgoingCall (default, as the server) or sms",
                   choices: SimulatedOperatorOptions.ConfirmMethod.allCases.map(\.rawValue)),
            .value("--time-zone", "ZONE", "the zone ext/options names (default Europe/Moscow)"),
            .value("--php-time-zone", "ZONE", "PHP's default zone, which every date is written and read in (default UTC, as a stock PHP)"),
            .flag("--recognition", "the entrance's camera recognises faces and plates (address/intercom shows FRSDisabled, LPRSDisabled)"),
            .value("--panel", "URL", "the Beward panel the doors open, e.g. http://127.0.0.1:8080 (default: a simulated one, started here)"),
            .value("--panel-user", "USER", "the panel's HTTP user (default admin)"),
            .value("--panel-password", "PASSWORD", "the panel's HTTP password (default admin)"),
            .value("--revoke-after", "N", "each access token answers N authorised requests, then 401"),
            .flag("--blocked", "the flat is blocked for non-payment: doors 404, event log 402"),
            .flag("--admin-blocked", "the flat is blocked by an administrator: doors 404, event log 403"),
            .value("--fault", "MODE", "huge: a 50 MB answer; garbage: an HTML page with 200; slow: answers after --slow-ms",
                   choices: SimulatedOperatorFaults.Mode.allCases.map(\.rawValue)),
            .value("--fault-on", "METHODS", "the methods the fault hits, e.g. address/getAddressList,address/openDoor (default: all)"),
            .value("--slow-ms", "N", "how long --fault slow waits (default 30000)"),
            .value("--message", "TEXT", "a message in the test phone's inbox at start, unread (\\n in TEXT starts a new line)"),
            .flag("--no-camera", "serve no video: cctv/all's camera URLs answer 404 (and GStreamer is not needed)"),
            .value("--door-code", "CODE", "the flat's entry code, 5 digits (default 12345; 00000 = none, as the server has it)"),
            .value("--entrances", "N", "the first address's panel serves N entrances (1-4), each with its own camera in cctv/camMap"),
        ],
        details: """
        Answers as a SmartYard server does: POST {base}/{module}/{method} with a JSON body, the
        {"code","name","message","data"} envelope (HTTP status = code), 204 with an empty body for
        openDoor, user/ping, access and an empty getAddressList, "t"/"f" booleans, dates
        "Y-m-d H:i:s" in PHP's default zone (--php-time-zone, UTC unless set: not the zone ext/options
        names, as on a real server whose PHP has no date.timezone), and the server's own error texts.
        Login: user/requestCode names the method: outgoingCall unless the app asks for "sms" (or
        --confirm-method sms): the reply names a number to phone and user/checkPhone lets the test
        phone in (401 for others: no call ever arrives). By SMS the test phone's code is 1001 and is
        never refused with 429; any other number is told {"method":"sms"} but no SMS is sent (there
        is no gateway), so it cannot log in; asking again within 60 s gets 429. Six confirmation
        attempts without the right code drop the PIN (403). Confirming again with the same deviceToken
        gives a new token and the old one gets 401. There is no loopback ?phone= back door.
        Error texts follow the request's Accept-Language as the server's i18n files do (Russian for
        ru, English otherwise): a wrong PIN, too many attempts, the device limit, and the plain
        status texts (404, 422, 429 ...) of the login methods.
        getSettingsList lists doorCode unless the code is 00000 and the flat's RFID keys to its owner.
        frs/like refuses (403) only an entry without a picture; the simulated face server registers
        the face of a recognition entry and answers any other picture with 406 and its message.
        Methods: user/ping, address/getAddressList, getSettingsList, openDoor, intercom, access,
        resetCode, plogDays, plog (each entry with its entranceId and cameraId), GET address/plogCamshot/UUID,
        cctv/all (each entrance's camera), cctv/camMap, cctv/ranges (404 for no such camera, else what the
        camera's kept segments reach, one piece), ext/options, inbox/unreaded,
        inbox/inbox (every message as the server's HTML page, newest first; marks them all read),
        inbox/readed (messageId, or all).
        address/access as the server's PHP: only an expire already past in PHP's zone removes (an
        unreadable one, or 1970-01-01 00:00:00 on UTC, reads as now and adds); adding keeps no end
        time, and getSettingsList lists the flat's other subscribers (never the caller) until 3001.
        With --resident the flat has a second subscriber who is not its owner: any member may add a
        guest, but removing anyone other than oneself is the owner's (a resident gets 200 with the
        server's Russian "no right to delete" and nothing is done).
        Cameras: one per address, at the URL cctv/all gives ({root}/cctv/ID) with its token (random
        each run), in the shapes Flussonic serves: GET {url}/index.m3u8?token=T is the live HLS
        playlist (1 s MPEG-TS segments of the porch scene labelled with the camera's name, H.264
        640x480 at 10 frames a second, the newest 5 listed) and {url}/preview.mp4?token=T its newest
        key frame in MP4. A wrong or missing token gets 403. A camera's GStreamer pipeline starts with
        the first request for it (that request waits about a second for the first segment) and runs
        until the simulator stops. The recording reaches back as far as the kept segments (the
        last minute): {url}/index-FROM-DURATION.m3u8?token=T (FROM in unix seconds) lists those inside
        the window as a finished recording and {url}/FROM-preview.mp4?token=T is the picture then;
        a time before that is 404.
        address/openDoor sends the panel what SmartYard's Beward driver sends (HTTP Basic, then
        intercom_cgi?action=maindoor for door 0, altdoor for door 1, then config_cgi?action=forcesave)
        and answers 204 even when the panel is down; each opening adds an "opened by app" (event 4)
        entry to the event log at once.
        Signals: SIGUSR1 revokes every access token (401 from then on, as when the operator removes
        the devices); SIGUSR2 logs an unanswered call from the panel's last entrance (with --entrances 2,
        entrance 102 and its camera 102: plog names both, as plog.php does); SIGTERM or SIGINT stops (exit 0).
        Lines: "operator listening on URL", "test phone NUMBER, code 1001", "panel URL (user U)",
        "door opened: DOOR (http)" (the simulated panel's), "tokens revoked", "call logged", "stopped".
        """,
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let settings: SimulateOperatorSettings
        do {
            settings = try SimulateOperatorSettings(invocation.arguments)
        } catch {
            return Console.fail(error.description, code: ExitCode.usage)
        }
        let signals = SignalWatcher([SIGTERM, SIGINT, SIGUSR1, SIGUSR2])
        var options = settings.options
        // Without --panel, a simulated panel of our own that takes what the server sends (Basic).
        var panel: SimulatedPanelHTTPServer?
        if options.panel == nil {
            let server = SimulatedPanelHTTPServer(options: SimulatedPanelOptions(auth: .both))
            do {
                try server.start()
            } catch {
                return Console.fail("\(error.description); pass --panel URL", code: ExitCode.unavailable)
            }
            options.panel = OperatorPanelTarget(url: server.baseURL, user: server.options.user, password: server.options.password)
            panel = server
        }
        let simulator: SimulatedOperator
        do {
            simulator = try SimulatedOperator.start(options)
        } catch {
            panel?.stop()
            let hint = if case .cannotStartCameras = error { "pass --no-camera to run without video" }
                else { "choose another --listen (port 0 picks a free one)" }
            return Console.fail("\(error.description); \(hint)", code: ExitCode.unavailable)
        }
        Console.out("operator listening on \(simulator.baseURL)")
        Console.out("test phone \(options.testPhone), code \(options.testCode)")
        if let resident = options.residentPhone { Console.out("resident \(resident), code \(options.residentCode) (not the flat's owner)") }
        if let target = options.panel { Console.out("panel \(target)") }
        let doors = panel.map { server in
            let events = server.doorEvents()
            return Task {
                for await door in events { Console.out("door opened: \(door.door) (\(door.method))") }
            }
        }
        for await signal in signals.signals {
            if signal == SIGUSR1 {
                simulator.revokeAllTokens()
                Console.out("tokens revoked")
            } else if signal == SIGUSR2 {
                // From the panel's last entrance: with --entrances 2 its own camera is not the first's.
                simulator.recordCall(answered: false, entrance: options.panelEntrances - 1)
                Console.out("call logged")
            } else {
                break
            }
        }
        simulator.stop()
        panel?.stop()
        doors?.cancel()
        Console.out("stopped")
        return ExitCode.ok
    }
}

/// The command's options, checked; the error is the one line for exit 64.
struct SimulateOperatorSettings {
    var options = SimulatedOperatorOptions()

    init(_ arguments: ParsedArguments) throws(UsageError) {
        func fail(_ message: String) -> UsageError { UsageError(message: message, command: "simulate-operator") }
        func count(_ name: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int? {
            guard let text = arguments.value(name) else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw fail("option '\(name)' takes a whole number \(range.lowerBound)-\(range.upperBound), not '\(text)'")
            }
            return value
        }
        if let listen = arguments.value("--listen") {
            guard let (host, port) = Self.hostPort(listen) else {
                throw fail("option '--listen' takes HOST:PORT with an IP address, e.g. 127.0.0.1:8090 or [::1]:8090, not '\(listen)'")
            }
            options.host = host
            options.port = port
        }
        func phone(_ name: String) throws(UsageError) -> String? {
            guard let phone = arguments.value(name) else { return nil }
            var digits = phone
            if digits.hasPrefix("8") { digits = "7" + digits.dropFirst() }
            guard digits.count == 11, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw fail("option '\(name)' takes 11 digits like 79123456781, not '\(phone)'")
            }
            return digits
        }
        if let digits = try phone("--phone") { options.testPhone = digits }
        options.residentPhone = try phone("--resident")
        if options.residentPhone == options.testPhone, let resident = options.residentPhone {
            throw fail("option '--resident' names the test phone \(resident); give the resident another number")
        }
        if let method = arguments.value("--confirm-method").flatMap(SimulatedOperatorOptions.ConfirmMethod.init) {
            options.confirmMethod = method
        }
        if let zone = arguments.value("--time-zone") {
            guard let timeZone = TimeZone(identifier: zone) else {
                throw fail("option '--time-zone' takes a zone name like Europe/Moscow or UTC, not '\(zone)'")
            }
            options.timeZone = timeZone
        }
        if let zone = arguments.value("--php-time-zone") {
            guard let timeZone = TimeZone(identifier: zone) else {
                throw fail("option '--php-time-zone' takes a zone name like UTC or Europe/Moscow, not '\(zone)'")
            }
            options.phpTimeZone = timeZone
        }
        options.recognition = arguments.has("--recognition")
        if let message = arguments.value("--message") {
            options.messages = [message.replacingOccurrences(of: "\\n", with: "\n")]
        }
        if let url = arguments.value("--panel") {
            guard let parts = URLAddress(parsing: url), parts.scheme == "http", parts.portIsValid,
                  parts.path.isEmpty || parts.path == "/" else {
                throw fail("option '--panel' takes the panel's http://HOST[:PORT], not '\(url)'")
            }
            let trimmed = url.hasSuffix("/") ? String(url.dropLast()) : url
            options.panel = OperatorPanelTarget(url: trimmed, user: arguments.value("--panel-user") ?? "admin",
                                                password: arguments.value("--panel-password") ?? "admin")
        } else if arguments.value("--panel-user") != nil || arguments.value("--panel-password") != nil {
            throw fail("--panel-user and --panel-password need --panel URL")
        }
        options.revokeAfter = try count("--revoke-after", 0...1_000_000)
        options.blocked = arguments.has("--blocked")
        options.adminBlocked = arguments.has("--admin-blocked")
        options.cameras = !arguments.has("--no-camera")
        if let code = arguments.value("--door-code") {
            guard code.count == 5, code.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw fail("option '--door-code' takes 5 digits like 12345 (00000 = none), not '\(code)'")
            }
            options.doorCode = code
        }
        if let entrances = try count("--entrances", 1...4) { options.panelEntrances = entrances }
        if let mode = arguments.value("--fault") {
            options.faults.mode = SimulatedOperatorFaults.Mode(rawValue: mode)
        }
        if let methods = arguments.value("--fault-on") {
            let names = methods.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard !names.isEmpty, names.allSatisfy({ $0.split(separator: "/").count == 2 }) else {
                throw fail("option '--fault-on' takes methods like address/openDoor,user/ping, not '\(methods)'")
            }
            options.faults.methods = Set(names)
        }
        if let slow = try count("--slow-ms", 0...600_000) { options.faults.slowMs = slow }
        if options.faults.mode == nil, arguments.value("--fault-on") != nil || arguments.value("--slow-ms") != nil {
            throw fail("--fault-on and --slow-ms need --fault MODE")
        }
    }

    /// "127.0.0.1:8090", "[::1]:8090" → host and port; nil otherwise.
    static func hostPort(_ text: String) -> (String, UInt16)? {
        let host: Substring
        let port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
            guard !host.contains(":") else { return nil }
        }
        guard !host.isEmpty, let number = UInt16(port) else { return nil }
        var v4 = in_addr()
        var v6 = in6_addr()
        let literal = String(host)
        guard inet_pton(AF_INET, literal, &v4) == 1 || inet_pton(AF_INET6, literal, &v6) == 1 else { return nil }
        return (literal, number)
    }
}
