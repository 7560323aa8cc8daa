import Foundation

/// A second liblinphone user agent (`linphonec`, package `linphone-cli`) driven through stdin.
///
/// Loopback only: rc file with `bind_address=127.0.0.1`, IPv6 off, a free SIP UDP port, TCP/TLS off,
/// storage and certificates in a private dir, and `HOME` pointed there. Sound card: `soundcard use files`
/// (plays `play <wav>` into the call, records with `record <wav>`).
///
/// Output lines worth waiting for (linphonec 5.1):
/// `Call 1 to sip:… in progress.`, `Call 1 to sip:… ringing.`, `Call 1 with sip:… connected.`,
/// `Media streams established with sip:… for call 1 (audio).`, `Receiving new incoming call from …, assigned id 1`,
/// `Call 1 with sip:… ended (No error).`, `Call 1 with sip:… error.`, `Call 1 with sip:… declined.`
package final class Linphonec: @unchecked Sendable {
    package let user: String
    package let sipPort: UInt16
    package let directory: TestDirectory
    package let rcURL: URL
    private(set) var process: Subprocess!

    /// `sip:<user>@127.0.0.1:<port>`: call this to reach the instance directly.
    package var address: String { "sip:\(user)@127.0.0.1:\(sipPort)" }

    /// - autoAnswer: `-a`, answer incoming calls at once.
    /// - video: `-V` (capture and display off in rc anyway: no camera, no window).
    /// - extraRC: more rc sections/keys appended verbatim.
    package init(user: String = "phone", autoAnswer: Bool = false, video: Bool = false, extraRC: String = "") throws {
        self.user = user
        sipPort = try FreePort.udpAndTCP()
        directory = try TestDirectory(prefix: "intercom-linphonec")
        let audio = try FreePort.udpRange(count: 2)
        let videoPorts = try FreePort.udpRange(count: 2)
        let rc = """
            [sip]
            sip_port=\(sipPort)
            sip_tcp_port=0
            sip_tls_port=0
            bind_address=127.0.0.1
            contact=sip:\(user)@127.0.0.1
            use_rfc2833=1
            use_info=0
            use_ipv6=0
            ipv6_migration_done=1
            register_only_when_network_is_up=0
            [rtp]
            audio_rtp_port=\(audio)
            video_rtp_port=\(videoPorts)
            [net]
            firewall_policy=0
            [sound]
            echocancellation=0
            [video]
            capture=0
            display=0
            automatically_initiate=0
            automatically_accept=0
            [storage]
            uri=\(directory.path)/linphone.db
            [misc]
            user_certificates_path=\(directory.path)
            \(extraRC)

            """
        rcURL = try directory.write(rc, to: "linphonerc")
        var args = ["-c", rcURL.path, "-d", "0"]
        if autoAnswer { args.append("-a") }
        if video { args.append("-V") }
        process = try Subprocess(
            "linphonec", args, name: "linphonec-\(user)",
            environment: ["HOME": directory.path, "XDG_DATA_HOME": nil, "XDG_CONFIG_HOME": nil],
            workingDirectory: directory.url, logDirectory: directory.url, stdin: true)
    }

    /// Switches to the file sound card and waits until linphonec took the command (it is ready then).
    package func start(timeout: Duration = TestPatience.condition) async throws {
        try send("soundcard use files")
        try await waitFor("Using wav files", timeout: timeout)
    }

    /// One raw command line.
    package func send(_ command: String) throws { try process.write(line: command) }

    package func call(_ uri: String) throws { try send("call \(uri)") }
    package func answer() throws { try send("answer") }
    /// One RFC 2833 digit (a digit alone on a line); call `send` with pauses for a sequence.
    package func dtmf(_ digit: Character) throws { try send(String(digit)) }
    package func terminate() throws { try send("terminate") }
    /// `register <identity> <proxy>`: e.g. `register sip:phone@127.0.0.1:<kport> sip:127.0.0.1:<kport>`.
    package func register(identity: String, proxy: String) throws { try send("register \(identity) \(proxy)") }
    /// Polls `proxy list` until it shows `registered: yes` (linphonec prints nothing by itself on
    /// registration at `-d 0`).
    package func waitForRegistered(timeout: Duration = TestPatience.condition) async throws {
        let registered = try await TestPatience.eventually(within: timeout, every: .milliseconds(150)) {
            if output.contains("registered: yes") { return true }
            try send("proxy list")
            return false
        }
        if !registered { throw HarnessError.timeout("linphonec registration", after: timeout, log: process.combinedOutput) }
    }

    /// A WAV played into calls (file sound card).
    package func play(wav: URL) throws { try send("play \(wav.path)") }
    /// Where the far end's audio of calls is recorded (file sound card).
    package func record(wav: URL) throws { try send("record \(wav.path)") }

    /// Sends `quit` and waits for the process to end; kills it if it hangs.
    @discardableResult
    package func quit(timeout: Duration = TestPatience.condition) async throws -> Int32 {
        try? send("quit")
        do {
            return try await process.waitForExit(timeout: timeout)
        } catch {
            await process.stop()
            throw error
        }
    }

    /// Waits until stdout or stderr contains `text`.
    @discardableResult
    package func waitFor(_ text: String, timeout: Duration = TestPatience.condition) async throws -> String {
        try await process.waitForOutput(containing: text, timeout: timeout)
    }

    /// `Call <id> with <uri> connected.`
    package func waitForConnected(timeout: Duration = TestPatience.condition) async throws {
        try await waitForLine(matching: "^Call [0-9]+ with .* connected\\.", timeout: timeout)
    }

    /// `Call <id> with <uri> ended (...)`
    package func waitForEnded(timeout: Duration = TestPatience.condition) async throws {
        try await waitForLine(matching: "Call [0-9]+ with .* ended", timeout: timeout)
    }

    /// `Receiving new incoming call from <uri>, assigned id <id>`
    package func waitForIncoming(timeout: Duration = TestPatience.condition) async throws {
        try await waitFor("Receiving new incoming call", timeout: timeout)
    }

    /// Polls stdout (prompt prefixes stripped) for a line matching `pattern` (regular expression).
    @discardableResult
    package func waitForLine(matching pattern: String, timeout: Duration = TestPatience.condition) async throws -> String {
        let regex = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        var line: String?
        try await TestPatience.eventually(within: timeout, every: .milliseconds(50)) {
            let text = output
            let range = NSRange(text.startIndex..., in: text)
            if let m = regex.firstMatch(in: text, range: range), let r = Range(m.range, in: text) {
                line = String(text[r])
                return true
            }
            guard process.isRunning else {
                throw HarnessError("linphonec exited before /\(pattern)/" + HarnessError.tail(process.combinedOutput))
            }
            return false
        }
        guard let line else { throw HarnessError.timeout("linphonec line /\(pattern)/", after: timeout, log: process.combinedOutput) }
        return line
    }

    /// stdout with the `linphonec> ` prompts removed, so state lines start at column 0.
    package var output: String { process.stdout.replacingOccurrences(of: "linphonec> ", with: "") }
    package var log: String { process.combinedOutput }

    package func stop() async { await process.stop() }
}
