import Foundation
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport

/// Proves the real-peer harness itself works: kamailio, sipp scenarios, linphonec, tone files, tmux.
/// Every test uses its own ports and temp dirs, so they run in parallel.
@Suite("Peers: harness self-tests", .timeLimit(.minutes(1)), .removesTestFolders)
struct PeersSelfTests {
    @Test("a missing tool fails the test and says to run make test")
    func missingToolMessage() {
        #expect {
            _ = try ExternalTool.path("intercom-no-such-tool")
        } throws: { error in
            "\(error)".contains("make test")
        }
    }

    @Test("free ports are distinct and bindable")
    func freePorts() throws {
        let a = try FreePort.udpAndTCP()
        let b = try FreePort.udpAndTCP()
        let range = try FreePort.udpRange(count: 4)
        #expect(a != b)
        // The base is even by construction (RTP even, RTCP odd); what can fail is that all four are usable.
        #expect((0..<4).allSatisfy { !FreePort.isUDPBound(range + UInt16($0)) }, "ports \(range)…\(range + 3) are taken")
        #expect(!FreePort.isUDPBound(a))
    }

    @Test("subprocess captures output, takes paced stdin, reports exit status")
    func subprocess() async throws {
        let dir = try TestDirectory()
        let p = try Subprocess(
            "bash", ["-c", "echo ready; read a; read b; echo \"got $a $b\" >&2; exit 3"],
            logDirectory: dir.url, stdin: true)
        try await p.waitForOutput(containing: "ready", in: .stdout, timeout: .seconds(5))
        try await p.write(lines: ["one", "two"], pacing: .milliseconds(10))
        try await p.waitForOutput(containing: "got one two", in: .stderr, timeout: .seconds(5))
        #expect(try await p.waitForExit(timeout: .seconds(5)) == 3)
    }

    @Test("subprocess stop ends a process that ignores stdin")
    func subprocessStop() async throws {
        let dir = try TestDirectory()
        let p = try Subprocess("sleep", ["30"], logDirectory: dir.url)
        #expect(p.isRunning)
        await p.stop(grace: .seconds(1))
        #expect(!p.isRunning)
    }

    @Test("kamailio starts, accepts a panel REGISTER, and comes back after restart")
    func kamailioRegister() async throws {
        let kamailio = try Kamailio()
        try await kamailio.start()
        let first = try await Sipp.run(
            scenario: BewardScenarios.register(), name: "register", remote: kamailio.hostPort, service: "100001",
            timeout: .seconds(10))
        #expect(first.succeeded, "\(first)")
        #expect(first.messages.contains("SIP/2.0 200 OK"))

        try await kamailio.restart()
        let second = try await Sipp.run(
            scenario: BewardScenarios.register(), name: "register2", remote: kamailio.hostPort, service: "100001",
            timeout: .seconds(10))
        #expect(second.succeeded, "\(second)")
        await kamailio.stop()
        #expect(!kamailio.isRunning)
    }

    @Test("kamailio hard kill takes its workers down; a fresh start on the same port serves again")
    func kamailioKillAndStart() async throws {
        let kamailio = try Kamailio()
        try await kamailio.start()
        let pid = try #require(kamailio.pid)
        await kamailio.kill()
        #expect(!kamailio.isRunning)
        #expect(kill(-pid, 0) == -1, "kamailio workers of group \(pid) survived SIGKILL")
        #expect(!Kamailio.probe(port: kamailio.port))
        try await kamailio.start()
        let r = try await Sipp.run(
            scenario: BewardScenarios.register(), name: "register", remote: kamailio.hostPort, service: "100001",
            timeout: .seconds(10))
        #expect(r.succeeded, "\(r)")
        await kamailio.stop()
    }

    @Test("panel call scenario (PCMA + H.264 offer, pcap audio, BYE) completes against sipp -sn uas")
    func panelCallAgainstUAS() async throws {
        let uas = try Sipp(scenario: try await Sipp.builtinScenario("uas"), name: "uas", timeout: .seconds(15))
        try await uas.waitUntilListening()
        let panel = try await Sipp.run(
            scenario: BewardScenarios.panelCall(hangupAfter: .milliseconds(500)), name: "panel", remote: uas.hostPort,
            timeout: .seconds(15))
        #expect(panel.succeeded, "\(panel)")
        let invite = panel.messages
        #expect(invite.contains("m=audio \(try #require(mediaPort(invite))) RTP/AVP 8 101"))
        #expect(invite.contains("a=fmtp:101 0-15"))
        #expect(invite.contains("RTP/AVP 96"))
        #expect(invite.contains("a=fmtp:96 profile-level-id=420028;packetization-mode=1"))
        #expect(invite.contains("From: \"Panel\" <sip:100001@"))
        let callee = try await uas.finish(timeout: .seconds(10))
        #expect(callee.succeeded, "\(callee)")
    }

    @Test("cancelled panel call scenario: 180, CANCEL, 200, 487, ACK on the INVITE branch")
    func panelCallCancelled() async throws {
        let uas = try Sipp(scenario: BewardScenarios.ringingUASExpectingCancel(), name: "ringing", timeout: .seconds(15))
        try await uas.waitUntilListening()
        let panel = try await Sipp.run(
            scenario: BewardScenarios.panelCallCancelled(after: .milliseconds(300)), name: "cancel",
            remote: uas.hostPort, timeout: .seconds(15))
        #expect(panel.succeeded, "\(panel)")
        let callee = try await uas.finish(timeout: .seconds(10))
        #expect(callee.succeeded, "\(callee)")
        // CANCEL and the ACK of the 487 must carry the INVITE's Via branch.
        let branches = viaBranches(panel.messages, methods: ["INVITE", "CANCEL", "ACK"])
        #expect(branches.count == 3 && Set(branches).count == 1, "\(branches)")
    }

    @Test("rejected panel call scenario accepts 403, 486 and 603", arguments: ["403 Forbidden", "486 Busy Here", "603 Decline"])
    func panelCallRejected(status: String) async throws {
        let uas = try Sipp(scenario: BewardScenarios.rejectingUAS(status: status), name: "reject", timeout: .seconds(15))
        try await uas.waitUntilListening()
        let panel = try await Sipp.run(
            scenario: BewardScenarios.expectRejected(), name: "rejected", remote: uas.hostPort, timeout: .seconds(15))
        #expect(panel.succeeded, "\(panel)")
        let callee = try await uas.finish(timeout: .seconds(10))
        #expect(callee.succeeded, "\(callee)")
        let branches = viaBranches(panel.messages, methods: ["INVITE", "ACK"])
        #expect(branches.count == 2 && Set(branches).count == 1, "\(branches)")
    }

    @Test("rejected scenario fails when the callee answers instead")
    func panelCallRejectedFailsOnAnswer() async throws {
        let uas = try Sipp(scenario: try await Sipp.builtinScenario("uas"), name: "uas", timeout: .seconds(5))
        try await uas.waitUntilListening()
        let panel = try await Sipp.run(
            scenario: BewardScenarios.expectRejected(), name: "rejected", remote: uas.hostPort, timeout: .seconds(5))
        #expect(!panel.succeeded)
        _ = await uas.stop()
    }

    @Test("linphonec calls a sipp UAS, sends DTMF, hangs up")
    func linphonecCallsUAS() async throws {
        let uas = try Sipp(scenario: try await Sipp.builtinScenario("uas"), name: "uas", timeout: .seconds(20))
        try await uas.waitUntilListening()
        let phone = try Linphonec(user: "phone")
        try await phone.start()
        try phone.call("sip:door@\(uas.hostPort)")
        try await phone.waitForConnected()
        try phone.dtmf("1")
        try await Task.sleep(for: .milliseconds(300))
        try phone.terminate()
        try await phone.waitForEnded()
        try await phone.quit()
        let callee = try await uas.finish(timeout: .seconds(10))
        #expect(callee.succeeded, "\(callee)")
    }

    @Test("panel call through kamailio reaches a registered, auto-answering linphonec")
    func panelCallViaKamailio() async throws {
        let kamailio = try Kamailio()
        try await kamailio.start()
        let phone = try Linphonec(user: "flat", autoAnswer: true)
        try await phone.start()
        try phone.register(identity: "sip:flat@\(kamailio.hostPort)", proxy: kamailio.uri)
        try await phone.waitForRegistered()
        let panel = try await Sipp.run(
            scenario: BewardScenarios.panelCall(hangupAfter: .seconds(1)), name: "panel", remote: kamailio.hostPort,
            service: "flat", timeout: .seconds(15))
        #expect(panel.succeeded, "\(panel)\n\(kamailio.log)")
        try await phone.waitForEnded()
        try await phone.quit()
        await kamailio.stop()
    }

    @Test("tone WAV writer and dominant-frequency detector round-trip")
    func toneRoundTrip() throws {
        let dir = try TestDirectory()
        for (freq, rate) in [(440.0, 8000), (1000.0, 16000), (1750.0, 8000)] {
            let url = dir.file("tone-\(Int(freq)).wav")
            try WAVTone.write(to: url, frequency: freq, seconds: 1, sampleRate: rate)
            let (samples, readRate) = try WAVTone.readSamples(wavPath: url.path)
            #expect(readRate == rate)
            #expect(samples.count == rate)
            let found = try #require(try WAVTone.dominantFrequency(wavPath: url.path))
            #expect(abs(found - freq) <= 2, "wrote \(freq) Hz, found \(found) Hz")
        }
        let silent = dir.file("silence.wav")
        try WAVTone.write(to: silent, frequency: 440, seconds: 1, amplitude: 0)
        #expect(try WAVTone.dominantFrequency(wavPath: silent.path) == nil)
    }

    @Test("tmux runs a command, captures its screen, resizes, reports exit")
    func tmux() async throws {
        // read prints the prompt itself, so once "hi" shows, read is waiting for the Enter. The
        // status is echoed, as the TUI tests do: tmux's own #{pane_dead_status} was seen missing
        // for 20 s under load (the pane dead, the status never learnt), one run in three.
        let tmux = try await Tmux(command: "bash -c 'read -p hi; exit 7'; echo EXIT=$?", width: 80, height: 24)
        try await withCleanup({ await tmux.kill() }) {
            try await tmux.waitForScreen(containing: "hi")
            try await tmux.sendKeys("Enter")
            _ = try await tmux.waitForScreen(containing: "EXIT=7")
            // Resizing the window keeps what it showed.
            try await tmux.resize(width: 100, height: 30)
            #expect(try await tmux.capture(includeHistory: true).contains("hi"))
            #expect(try await tmux.capture(includeHistory: true).contains("EXIT=7"))
        }
    }

    // MARK: helpers

    private func mediaPort(_ messages: String) -> String? {
        guard let r = messages.range(of: "m=audio ") else { return nil }
        return String(messages[r.upperBound...].prefix { $0.isNumber })
    }

    /// Via branch of each sent request with one of `methods`, in order, from a sipp message log.
    private func viaBranches(_ messages: String, methods: Set<String>) -> [String] {
        var result: [String] = []
        var current: String?
        for line in messages.split(whereSeparator: \.isNewline) {  // "\r\n" is one Character
            let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if let method = text.split(separator: " ").first, text.hasSuffix("SIP/2.0"), methods.contains(String(method)) {
                current = String(method)
            } else if current != nil, text.hasPrefix("Via:"), let b = text.range(of: "branch=") {
                result.append(String(text[b.upperBound...].prefix { $0 != ";" }))
                current = nil
            }
        }
        return result
    }
}
