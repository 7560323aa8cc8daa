import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport
import IntercomPhoneTestSupport

/// Hostile and malformed INVITEs from sipp against the real daemon: oversized headers, long Via
/// chains, broken SDP, codecs nobody knows, missing or strange headers. After each one the daemon
/// must still run; nothing from an unknown caller may become an event; a panel call that cannot be
/// answered must be refused or end (never hang ringing); and a normal call still works at the end.
@Suite("faults: hostile SIP", .removesTestFolders) struct DaemonHostileSIPTests {
    /// One malformed INVITE and who sends it.
    struct Probe: Sendable, CustomStringConvertible {
        var name: String
        var invite: FaultScenarios.Invite
        var tcp = false
        /// How long sipp waits for the INVITE's answer; probes the stack drops get less.
        var patience: Duration = .seconds(3)
        /// sipp `-key NAME VALUE` pairs, for text too big for a scenario file (sipp reads at most 64 KB of XML).
        var keys: [String: String] = [:]
        var description: String { name }
        var fromPanel: Bool { invite.user == BewardScenarios.panelUser }
    }

    static let stranger = "666"

    static var probes: [Probe] {
        typealias Invite = FaultScenarios.Invite
        let junk = String(repeating: "x", count: 60 * 1024)
        // Printable noise without the characters sipp (keywords) or XML would interpret.
        let forbidden: Set<UInt8> = [UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "<"), UInt8(ascii: "&")]
        let noise: [UInt8] = (0..<1500).map { (i: Int) -> UInt8 in UInt8(33 + (i &* 37) % 90) }.filter { !forbidden.contains($0) }
        let garbageBody: String = String(decoding: noise, as: UTF8.self).split(by: 70).joined(separator: "\n")
        let list: [Probe] = [
            Probe(name: "60 KB header over TCP", invite: Invite(user: stranger, extraHeaders: ["X-Junk: [junk]"]),
                  tcp: true, keys: ["junk": junk]),
            Probe(name: "60 KB header over UDP", invite: Invite(user: stranger, extraHeaders: ["X-Junk: [junk]"]),
                  keys: ["junk": junk]),
            Probe(name: "panel: 60 KB header over TCP", invite: Invite(extraHeaders: ["Subject: [junk]"]),
                  tcp: true, keys: ["junk": junk]),
            // belle-sip drops an INVITE with more than ~260 Vias unanswered (its parser's limit).
            Probe(name: "300 Via hops", invite: Invite(user: stranger, viaChain: 300), patience: .seconds(1)),
            Probe(name: "panel: 200 Via hops", invite: Invite(viaChain: 200)),
            Probe(name: "garbage labelled SDP", invite: Invite(user: stranger, body: garbageBody)),
            Probe(name: "no Contact", invite: Invite(user: stranger, contact: false)),
            Probe(name: "panel: garbage labelled SDP", invite: Invite(body: garbageBody)),
            Probe(name: "panel: SDP without m= lines", invite: Invite(body: FaultScenarios.sdp(media: "a=sendrecv"))),
            Probe(name: "panel: absurd ports",
                  invite: Invite(body: FaultScenarios.sdp(media: """
                      m=audio 99999 RTP/AVP 8 101
                      a=rtpmap:8 PCMA/8000
                      a=rtpmap:101 telephone-event/8000
                      m=video 4294967297 RTP/AVP 96
                      a=rtpmap:96 H264/90000
                      """))),
            Probe(name: "panel: unknown codecs only",
                  invite: Invite(body: FaultScenarios.sdp(media: """
                      m=audio [media_port] RTP/AVP 120
                      a=rtpmap:120 FROB/8000
                      m=video [media_port+2] RTP/AVP 121
                      a=rtpmap:121 GRONK/90000
                      """))),
            Probe(name: "panel: no Contact", invite: Invite(contact: false)),
            Probe(name: "panel: Contact that is not a SIP URI", invite: Invite(contact: false, extraHeaders: ["Contact: <mailto:door@example.org>"])),
            Probe(name: "panel: no body at all", invite: Invite(body: nil)),
            Probe(name: "panel: c= line with a bogus address",
                  invite: Invite(body: FaultScenarios.panelSDP.replacingOccurrences(
                      of: "c=IN IP[media_ip_type] [media_ip]", with: "c=IN IP4 999.1.2.3"))),
            Probe(name: "panel: quotes, backslashes, JSON and UTF-8 in From",
                  invite: Invite(displayName: #"Evil \" \\ {\"event\":\"x\"} ünïcödé ☎"#, fromParameters: ";evil=%22%5C%00")),
            // These crashed liblinphone (a null address in makeLocalMediaDescription) or held the phone
            // thread for seconds in belle-sip's parser; our screen drops them unanswered.
            Probe(name: "panel: From display name of 1100 characters",
                  invite: Invite(displayName: String(repeating: "d", count: 1100)), patience: .seconds(1)),
            Probe(name: "From display name of 1100 characters",
                  invite: Invite(user: stranger, displayName: String(repeating: "d", count: 1100)), patience: .seconds(1)),
            // Over TCP the read hook in front of belle-sip closes the connection instead.
            Probe(name: "panel: From display name of 1100 characters over TCP",
                  invite: Invite(displayName: String(repeating: "d", count: 1100)), tcp: true, patience: .seconds(1)),
            Probe(name: "From user of 4 KB", invite: Invite(user: String(repeating: "9", count: 4096)), patience: .seconds(1)),
        ]
        return list
    }

    @Test("each hostile INVITE: the daemon lives, strangers raise no event, panel calls end; a normal call works after")
    func hostileInvites() async throws {
        let daemon = try DaemonProcess(config: """
            [sip]
            listen = udp:127.0.0.1:0, tcp:127.0.0.1:0
            unknown_callers = reject
            media_timeout = 3

            [panel entrance]
            url = http://127.0.0.1:9
            match = sip:100001@
            auto_answer = on
            """, name: "hostile")
        try await daemon.waitUntilStarted()
        var outcomes: [String] = []

        for probe in Self.probes {
            let callsBefore = daemon.events.filter { $0.name == "call_incoming" }.count
            let sipp = try Sipp(
                scenario: FaultScenarios.probe(probe.invite), name: "probe",
                remote: "127.0.0.1:\(try daemon.port(probe.tcp ? "tcp" : "udp"))", service: "resident",
                timeout: probe.patience,
                extraArguments: (probe.tcp ? ["-t", "t1"] : []) + probe.keys.sorted { $0.key < $1.key }.flatMap { ["-key", $0.key, $0.value] })
            let result = try await sipp.finish(timeout: .seconds(15))
            // The first final response is the INVITE's; later ones answer our ACK or BYE.
            let codes = Self.finalCodes(in: result.messages)
            #expect(daemon.process.isRunning, "the daemon died on \(probe)\n\(result)\n\(daemon.log)")
            guard daemon.process.isRunning else { break }

            let fresh = daemon.events.filter { $0.name == "call_incoming" }.dropFirst(callsBefore)
            var ends: [String] = []
            if probe.fromPanel {
                // Refused outright, or answered and then ended: never left ringing or hanging.
                for incoming in fresh {
                    let call = incoming.string("call") ?? ""
                    let ended = try await daemon.waitForEvent("call_ended", timeout: .seconds(10)) { $0.string("call") == call }
                    ends.append(ended.string("reason") ?? "?")
                    #expect(["remote_hangup", "error", "missed", "declined"].contains(ended.string("reason") ?? ""),
                            "\(probe): \(ended)")
                }
                if probe.name.contains("unknown codecs") {
                    // Nothing to talk with: refused with 488, or at worst answered and failed.
                    #expect(codes.first == 488 || (!ends.isEmpty && ends.allSatisfy { $0 == "error" }), "\(probe): \(codes) \(ends)")
                }
            } else {
                #expect(fresh.isEmpty, "\(probe) from a stranger raised events: \(Array(fresh))")
                #expect(!codes.contains(200), "\(probe) from a stranger was answered\n\(result)")
            }
            outcomes.append("\(probe): " + (codes.first.map { "\($0)" } ?? "dropped, no answer")
                            + (ends.isEmpty ? "" : ", call_ended \(ends.joined(separator: ","))"))
        }
        print("hostile SIP outcomes (final response to the INVITE):\n  " + outcomes.joined(separator: "\n  "))

        #expect(daemon.log.contains("dropped a SIP message from 127.0.0.1"), "the screen should say what it dropped\n\(daemon.log)")
        #expect(daemon.events.allSatisfy { !$0.isNull("panel") || !DaemonEventChecks.callEvents.contains($0.name) },
                "an unknown caller raised an event: \(daemon.events)")
        FaultChecks.expectNoCallLeftOpen(daemon)
        try await FaultChecks.expectAnswersAPanelCall(daemon, label: "after-hostile")
        DaemonEventChecks.expectWellFormed(daemon)
        #expect(await daemon.stop() == 0, "\(daemon.log)")
    }

    /// Status codes of the final responses sipp received, from its `-trace_msg` log.
    static func finalCodes(in messages: String) -> [Int] {
        messages.components(separatedBy: "message received").dropFirst().compactMap { block in
            guard let line = block.split(separator: "\n").first(where: { $0.hasPrefix("SIP/2.0 ") }) else { return nil }
            let code = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return code >= 200 ? code : nil
        }
    }
}

private extension String {
    /// The string cut into pieces of at most `length` characters.
    func split(by length: Int) -> [String] {
        stride(from: 0, to: count, by: length).map { start in
            let from = index(startIndex, offsetBy: start)
            return String(self[from..<(index(from, offsetBy: length, limitedBy: endIndex) ?? endIndex)])
        }
    }
}
