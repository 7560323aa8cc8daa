import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport
import IntercomPhoneTestSupport

/// Strangers on the network get nothing: out-of-dialog requests from an address that is no panel
/// (127.0.0.2 here; the panel is 127.0.0.1) are answered at the SIP read and never reach liblinphone.
/// Before, 2 000 MESSAGEs were each answered 200 OK and grew the daemon by 40 MB and its home by 2.4 MB.
@Suite("security: strangers' SIP requests", .serialized, .removesTestFolders) struct StrangerRequestTests {
    static let requests = 2000
    static let rate = 200

    /// One kind of request a stranger floods us with, and the answer it must get.
    struct Flood: Sendable, CustomStringConvertible {
        let method: String
        let answer: Int
        var headers: [String] = []
        var body: String?
        var description: String { method }
    }

    static let floods = [
        Flood(method: "MESSAGE", answer: 405, body: String(repeating: "Hello from a stranger. ", count: 45)),
        Flood(method: "SUBSCRIBE", answer: 405, headers: ["Event: presence", "Expires: 3600", "Accept: application/pidf+xml"]),
        Flood(method: "OPTIONS", answer: 403, headers: ["Accept: application/sdp"]),
    ]

    @Test("2 000 strangers' requests at 200/s: each refused at the read, memory and home flat, no event; the panel's call after is answered",
          arguments: floods)
    func floodIsRefusedAtTheRead(_ flood: Flood) async throws {
        let daemon = try DaemonProcess(config: DaemonProcess.autoAnsweringPanelConfig(), name: "strangers")
        try await daemon.waitUntilStarted()
        let pid = daemon.process.pid
        // A first small flood warms up what is allocated once (malloc arenas, belle-sip's channel).
        let warmup = try await Self.send(flood, to: daemon, count: 300)
        #expect(warmup.succeeded, "\(warmup)")
        let memoryBefore = try await Self.settledPrivateKiB(pid)
        let eventsBefore = daemon.events.count
        let filesBefore = Self.fileSizes(under: daemon.directory.url)

        let result = try await Self.send(flood, to: daemon, count: Self.requests)
        let memoryAfter = try await Self.settledPrivateKiB(pid)
        let grown = Self.fileSizes(under: daemon.directory.url).compactMap { path, size -> String? in
            let growth = size - (filesBefore[path] ?? 0)
            return growth >= 256 * 1024 ? "\(path) +\(growth / 1024) KiB" : nil
        }
        print("\(flood.method) flood: \(Self.requests) at \(Self.rate)/s; private memory \(memoryBefore) KiB before, "
              + "\(memoryAfter) KiB after (\(memoryAfter - memoryBefore) KiB); sipp: \(DaemonScanTests.statistics(result.stdout))")
        // sipp succeeds only when every request got its refusal; a 2xx would be unexpected and fail it.
        #expect(result.succeeded, "not every \(flood.method) got \(flood.answer)\n\(result)\n\(daemon.log)")
        #expect(memoryAfter - memoryBefore <= 3 * 1024, "private memory grew from \(memoryBefore) to \(memoryAfter) KiB")
        #expect(grown.isEmpty, "files under the home grew: \(grown)")
        let fresh = daemon.events.dropFirst(eventsBefore).filter {
            DaemonEventChecks.callEvents.contains($0.name) || $0.line.contains("127.0.0.2") || $0.line.contains("stranger")
        }
        #expect(fresh.isEmpty, "a stranger's request raised an event: \(fresh.prefix(5))")
        #expect(daemon.log.components(separatedBy: "refused a SIP \(flood.method) from 127.0.0.2").count - 1 <= 4,
                "the refusals are logged at most every 10 s\n\(daemon.log)")
        try await FaultChecks.expectAnswersAPanelCall(daemon, label: "after-\(flood.method)")
        #expect(await daemon.stop() == 0, "\(daemon.log)")
    }

    /// belle-sip makes a UDP channel (with a 64 KB buffer) for every new source address and port before any hook
    /// sees the datagram: 2 000 MESSAGEs from 2 000 ports grew the daemon by 133 MB until a refusal let it go.
    @Test("2 000 strangers' MESSAGEs at 200/s, each from a new port: all refused, private memory flat")
    func floodFromNewPortsLeavesNothingBehind() async throws {
        let daemon = try DaemonProcess(config: DaemonProcess.autoAnsweringPanelConfig(), name: "strangers-ports")
        try await daemon.waitUntilStarted()
        let pid = daemon.process.pid
        let port = try daemon.port("udp")
        func flood(_ count: Int) async throws -> [String: Int] {
            var answers: [String: Int] = [:]
            let clock = ContinuousClock()
            let start = clock.now
            for index in 0..<count {
                let peer = try RawSIPPeer(localHost: "127.0.0.2", tcp: false, remotePort: port)
                try peer.send(SIPMessage("MESSAGE sip:resident@127.0.0.1:\(port) SIP/2.0", headers: [
                    "Via: SIP/2.0/UDP 127.0.0.2:5060;rport;branch=z9hG4bK-ports-\(index)",
                    "From: <sip:stranger@127.0.0.2>;tag=p\(index)", "To: <sip:resident@127.0.0.1>",
                    "Call-ID: ports-\(count)-\(index)", "CSeq: 1 MESSAGE", "Max-Forwards: 70",
                ], contentType: "text/plain", body: String(repeating: "x", count: 1024)).wire)
                let reply = await peer.firstReply(within: .seconds(1)).map { $0.components(separatedBy: "\r\n")[0] } ?? "nothing"
                answers[reply, default: 0] += 1
                let due = start.advanced(by: .milliseconds(5 * (index + 1)))
                if clock.now < due { try await Task.sleep(until: due) }
            }
            return answers
        }
        _ = try await flood(300)
        let before = try await Self.settledPrivateKiB(pid)
        let answers = try await flood(Self.requests)
        let after = try await Self.settledPrivateKiB(pid)
        print("MESSAGE flood from new ports: \(answers); private memory \(before) KiB before, \(after) KiB after (\(after - before) KiB)")
        #expect(answers == ["SIP/2.0 405 Method Not Allowed": Self.requests], "\(answers)\n\(daemon.log)")
        #expect(after - before <= 3 * 1024, "private memory grew from \(before) to \(after) KiB")
        try await FaultChecks.expectAnswersAPanelCall(daemon, label: "after-ports")
        #expect(await daemon.stop() == 0, "\(daemon.log)")
    }

    @Test("over TCP each message is judged whole, however it is cut; refused ones are answered and the connection stays; a cut INVITE still gets its 403")
    func tcpMessagesAreJudgedOneByOne() async throws {
        let daemon = try DaemonProcess(config: DaemonProcess.autoAnsweringPanelConfig()
            .replacingOccurrences(of: "listen = udp:127.0.0.1:0", with: "listen = udp:127.0.0.1:0, tcp:127.0.0.1:0"), name: "strangers-tcp")
        try await daemon.waitUntilStarted()
        let port = try daemon.port("tcp")
        let peer = try RawSIPPeer(localHost: "127.0.0.2", tcp: true, remotePort: port)
        func request(_ method: String, _ callID: String, body: String = "") -> String {
            SIPMessage("\(method) sip:resident@127.0.0.1:\(port) SIP/2.0", headers: [
                "Via: SIP/2.0/TCP 127.0.0.2:5060;branch=z9hG4bK-\(callID)",
                "From: <sip:stranger@127.0.0.2>;tag=s-\(callID)", "To: <sip:resident@127.0.0.1>;tag=forged",
                "Call-ID: \(callID)", "CSeq: 1 \(method)", "Max-Forwards: 70",
            ], contentType: "text/plain", body: body.isEmpty ? nil : body).wire
        }
        // One message; then two in one write; then one whose head is cut in two writes.
        try peer.send(request("MESSAGE", "tcp-1", body: "hello"))
        let first = await peer.receive(for: .seconds(1))
        #expect(first.text.hasPrefix("SIP/2.0 405 Method Not Allowed") && first.text.contains("Allow: INVITE"), "\(first.text)\n\(daemon.log)")
        #expect(!first.closed, "a refused message does not end the connection")
        try peer.send(request("OPTIONS", "tcp-2") + request("SUBSCRIBE", "tcp-3"))
        let both = await peer.receive(for: .seconds(1))
        #expect(both.text.contains("SIP/2.0 403 Forbidden") && both.text.contains("SIP/2.0 405 Method Not Allowed")
                && both.text.contains("Call-ID: tcp-2") && both.text.contains("Call-ID: tcp-3"), "\(both.text)")
        let split = request("MESSAGE", "tcp-4", body: "split")
        try await Self.sendInTwoWrites(split, cutAt: 60, by: peer)
        let joined = await peer.receive(for: .seconds(1))
        #expect(joined.text.hasPrefix("SIP/2.0 405") && joined.text.contains("Call-ID: tcp-4") && !joined.closed, "\(joined.text)")
        // A stranger's INVITE with its head cut in two still meets the caller gate (403 under reject), as before.
        let invite = peer.invite(service: "resident", remotePort: port, claimedUser: "666", claimedHost: "127.0.0.2", callID: "tcp-5")
        try await Self.sendInTwoWrites(invite, cutAt: 120, by: peer)
        let refused = await peer.receive(for: .seconds(2))
        #expect(refused.text.contains("SIP/2.0 403") && refused.text.contains("Call-ID: tcp-5") && !refused.closed, "\(refused.text)\n\(daemon.log)")
        #expect(daemon.process.isRunning && !daemon.names.contains("call_incoming"), "\(daemon.events)")
        try await FaultChecks.expectAnswersAPanelCall(daemon, label: "after-tcp")
        #expect(await daemon.stop() == 0, "\(daemon.log)")
    }

    /// liblinphone with chat off answers a MESSAGE 501, but accepts a presence SUBSCRIBE (200) and keeps its
    /// subscriber, whoever sends it: the read gate refuses both, to panels too.
    @Test("the panel's own MESSAGE and SUBSCRIBE get 405 at the read too: nothing is kept for them")
    func chatAndPresenceAreRefusedEvenToPanels() async throws {
        let daemon = try DaemonProcess(config: DaemonProcess.autoAnsweringPanelConfig(), name: "panel-chat")
        try await daemon.waitUntilStarted()
        let port = try daemon.port("udp")
        let panel = try RawSIPPeer(localHost: "127.0.0.1", tcp: false, remotePort: port)
        var answers: [String] = []
        for (index, method) in ["MESSAGE", "SUBSCRIBE"].enumerated() {
            try panel.send(SIPMessage("\(method) sip:resident@127.0.0.1:\(port) SIP/2.0", headers: [
                "Via: SIP/2.0/UDP 127.0.0.1:\(5060 + index);rport;branch=z9hG4bK-panel-\(index)",
                "From: <sip:100001@127.0.0.1>;tag=p\(index)", "To: <sip:resident@127.0.0.1>",
                "Call-ID: panel-chat-\(index)", "CSeq: 1 \(method)", "Max-Forwards: 70",
                "Contact: <sip:100001@127.0.0.1:5060>", "Event: presence", "Expires: 60",
            ], contentType: "text/plain", body: method == "MESSAGE" ? "open the door" : nil).wire)
            let reply = await panel.firstReply(within: .seconds(2)) ?? "nothing"
            answers.append("\(method): \(reply.split(separator: "\r\n").first ?? "")")
            #expect(reply.hasPrefix("SIP/2.0 405 Method Not Allowed") && reply.contains("Allow: INVITE"), "\(method) from the panel: \(reply)")
        }
        print("the panel's own requests: \(answers)")
        #expect(daemon.process.isRunning && !daemon.names.contains("call_incoming"), "\(daemon.events)")
        #expect(await daemon.stop() == 0, "\(daemon.log)")
    }

    @Test("a call we place to an address that is no panel's: the callee's own BYE still reaches us")
    func ourCallToANonPanelAddressKeepsItsDialog() async throws {
        let sdp = FaultScenarios.sdp(media: "m=audio [media_port] RTP/AVP 8 101\na=rtpmap:8 PCMA/8000\na=rtpmap:101 telephone-event/8000")
        var answer = SIPMessage.sippResponse("200 OK")
        answer.body = sdp
        // The callee answers, then hangs up itself: its BYE comes from 127.0.0.2, which is no panel.
        let bye = SIPMessage("BYE [next_url] SIP/2.0", headers: [
            "Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=z9hG4bK-[pid]-[call_number]-bye",
            "From: <sip:door@[local_ip]:[local_port]>;tag=[pid]SIPpTag01[call_number]",
            "To: <sip:intercom@127.0.0.1>;tag=[$fromtag]", "Call-ID: [call_id]", "CSeq: 1 BYE", "Max-Forwards: 70",
        ])
        let callee = try Sipp(scenario: SippScenario.xml("callee on 127.0.0.2", [
            #"""
              <recv request="INVITE" rrs="true">
                <action><ereg regexp=";tag=([^;> ]*)" search_in="hdr" header="From:" assign_to="whole,fromtag"/></action>
              </recv>
              <Reference variables="whole"/>
            """#,
            SIPMessage.sippResponse("180 Ringing").sippSend(),
            answer.sippSend(#"retrans="500""#),
            #"  <recv request="ACK"/>"#,
            SippScenario.pause(.seconds(1)),
            bye.sippSend(#"retrans="500""#),
            #"  <recv response="200"/>"#,
        ]), name: "callee", timeout: .seconds(20), localHost: "127.0.0.2")
        // (Its port is bound long before the daemon below has started and dials it; waitUntilListening looks at 127.0.0.1 only.)
        let daemon = try DaemonProcess(config: DaemonProcess.autoAnsweringPanelConfig()
            .replacingOccurrences(of: "auto_answer = on", with: "auto_answer = on\ndial = sip:door@127.0.0.2:\(callee.localPort)"),
            name: "strangers-dial")
        try await withCleanup({ _ = await callee.stop(); _ = await daemon.stop() }) {
            try await daemon.waitUntilStarted()
            let placed = try await daemon.run(["ctl", "call", "entrance"])
            #expect(placed.status == 0, "\(placed)\n\(daemon.log)")
            // Not `try`: when the call does not end, the callee's own log says why.
            let ended = try? await daemon.waitForEvent("call_ended", timeout: .seconds(15))
            let result = try await callee.finish(timeout: .seconds(20))
            #expect(ended?.string("reason") == "remote_hangup",
                    "the callee's BYE must end the call: \(String(describing: ended))\n\(result)\n\(daemon.log)")
            #expect(result.succeeded, "the callee's BYE must be answered 200\n\(result)")
            #expect(!result.messages.contains("SIP/2.0 403"), "\(result.messages)")
            #expect(await daemon.stop() == 0, "\(daemon.log)")
        }
    }

    /// sipp from 127.0.0.2: `count` requests at `rate`/s, each expecting `flood.answer`.
    static func send(_ flood: Flood, to daemon: DaemonProcess, count: Int) async throws -> Sipp.Result {
        let request = SIPMessage.sippRequest(flood.method, user: "stranger", displayName: nil, cseq: 1,
                                             branch: "z9hG4bK-[pid]-[call_number]-req", contact: flood.method == "SUBSCRIBE",
                                             more: flood.headers, contentType: "text/plain", body: flood.body)
        let scenario = SippScenario.xml("stranger \(flood.method)", [
            request.sippSend(#"retrans="500""#),
            "  <recv response=\"\(flood.answer)\"/>",
        ])
        let sipp = try Sipp(scenario: scenario, name: "stranger", remote: try daemon.hostPort(), service: "resident",
                            timeout: .seconds(60), calls: count, rate: rate, traceMessages: false, localHost: "127.0.0.2")
        return try await sipp.finish(timeout: .seconds(90))
    }

    /// The daemon's private memory in KiB: what it wrote (Private_Dirty, heap and stacks among it) plus any of
    /// that swapped out, from /proc/PID/smaps_rollup. Not Private_Clean: library pages count as private only
    /// while no other process maps them, so it swings by megabytes as other daemons of the test run come and go.
    /// The daemon's private memory once a flood's last answers have gone (a second after it): what a
    /// measure before and after compares.
    static func settledPrivateKiB(_ pid: pid_t) async throws -> Int {
        try await Task.sleep(for: .seconds(1))
        return try privateKiB(pid)
    }

    /// A message whose head is cut in two TCP writes 200 ms apart, so the daemon reads it in two parts.
    static func sendInTwoWrites(_ message: String, cutAt offset: Int, by peer: RawSIPPeer) async throws {
        let cut = message.index(message.startIndex, offsetBy: offset)
        try peer.send(String(message[..<cut]))
        try await Task.sleep(for: .milliseconds(200))
        try peer.send(String(message[cut...]))
    }

    static func privateKiB(_ pid: pid_t) throws -> Int {
        let text = try String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)
        let values = text.split(separator: "\n").filter { $0.hasPrefix("Private_Dirty:") || $0.hasPrefix("Swap:") }
            .compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) } }
        guard values.count == 2 else { throw HarnessError("no Private_Dirty/Swap in /proc/\(pid)/smaps_rollup") }
        return values.reduce(0, +)
    }

    /// The size of every file under `root`, by path.
    static func fileSizes(under root: URL) -> [String: Int] {
        var sizes: [String: Int] = [:]
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard let values = try? url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey]), values.isRegularFile == true else { continue }
            sizes[url.path] = values.fileSize ?? 0
        }
        return sizes
    }
}
