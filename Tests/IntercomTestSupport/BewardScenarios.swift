import Foundation

/// sipp scenario XML that imitates a Beward panel (and a few counterpart UAS scenarios to check them),
/// built from `SIPMessage` and `SippScenario`.
///
/// The panel offer follows the reference: audio `RTP/AVP 8 101` (PCMA + telephone-event 0-15),
/// video `RTP/AVP 96` H.264 (profile-level-id 420028, packetization-mode 1), From user `100001`.
/// Use with `Sipp(scenario:remote:service:)`; `[service]` is the called user.
package enum BewardScenarios {
    package static let g711aPcap = "/usr/share/sip-tester/g711a.pcap"
    package static let panelUser = "100001"

    /// The panel calls, the callee answers, the panel plays the G.711 A-law pcap as its audio
    /// and hangs up with BYE after `hangupAfter` (the pcap lasts ~4.7 s; playback is asynchronous).
    /// `inCall` is scenario XML run once the call is up, before the pause (e.g. answering a REFER).
    package static func panelCall(hangupAfter: Duration = .seconds(2), video: Bool = true, user: String = panelUser,
                                  name: String = "Beward panel call", inCall: String = "", byeCSeq: Int = 2) -> String {
        SippScenario.xml(name, [
            invite(user: user, video: video, transaction: false),
        ] + SippScenario.provisional() + [
            #"  <recv response="200" rtd="true" rrs="true"/>"#,
            SIPMessage.sippRequest("ACK", user: user, cseq: 1, inDialog: true).sippSend(),
            "  <nop>\n    <action>\n      <exec play_pcap_audio=\"\(g711aPcap)\"/>\n    </action>\n  </nop>",
            inCall,
            SippScenario.pause(hangupAfter),
            SIPMessage.sippRequest("BYE", user: user, cseq: byeCSeq, inDialog: true).sippSend(#"retrans="500""#),
            #"  <recv response="200" crlf="true"/>"#,
        ])
    }

    /// The panel calls, waits for 180, lets it ring for `after`, then CANCELs:
    /// expects 200 for the CANCEL and 487 for the INVITE, and ACKs the 487.
    /// Uses sipp transactions (`start_txn`/`response_txn`) so the CANCEL and the ACK carry the INVITE's branch.
    package static func panelCallCancelled(after: Duration = .seconds(1), user: String = panelUser) -> String {
        // Message indexes: 0 INVITE, 1 100, 2 183, 3 180, 4 pause, 5 CANCEL, 6 200, 7 487, 8 ACK.
        SippScenario.xml("Beward panel call cancelled", [
            invite(user: user, video: true, transaction: true),
            #"  <recv response="100" optional="true" response_txn="invite"/>"#,
            #"  <recv response="183" optional="true" response_txn="invite"/>"#,
            #"  <recv response="180" response_txn="invite"/>"#,
            SippScenario.pause(after),
            SIPMessage.sippRequest("CANCEL", user: user, cseq: 1, branch: "[branch-5]", contact: false)
                .sippSend(#"retrans="500" start_txn="cancel""#),
            #"  <recv response="200" response_txn="cancel"/>"#,
            #"  <recv response="487" response_txn="invite"/>"#,
            SIPMessage.sippRequest("ACK", user: user, cseq: 1, branch: "[branch-8]", contact: false).sippSend(#"ack_txn="invite""#),
        ])
    }

    /// The panel calls and expects the callee to refuse: a final 403, 486 or 603 (anything else fails), then ACK.
    package static func expectRejected(user: String = panelUser) -> String {
        // Message indexes: 0 INVITE, 1 100, 2 180, 3 183, 4 403, 5 486, 6 603, 7 ACK (a <label> takes no index).
        SippScenario.xml("Beward panel call rejected", [
            invite(user: user, video: true, transaction: false),
        ] + SippScenario.provisional() + [
            #"  <recv response="403" optional="true" next="rejected"/>"#,
            #"  <recv response="486" optional="true" next="rejected"/>"#,
            #"  <recv response="603" next="rejected"/>"#,
            #"  <label id="rejected"/>"#,
            SIPMessage.sippRequest("ACK", user: user, cseq: 1, branch: "[branch-7]", contact: false).sippSend(),
        ])
    }

    /// A panel registering as `[service]` (pass the user as `service:`) to the registrar at `remote`; expects 200.
    package static func register(expires: Int = 120) -> String {
        SippScenario.xml("Panel REGISTER", [
            SIPMessage.sippRequest("REGISTER", user: "[service]", cseq: 1, requestURI: "sip:[remote_ip]:[remote_port]",
                                   from: "<sip:[service]@[remote_ip]:[remote_port]>;tag=[pid]SIPpTag00[call_number]",
                                   more: ["Expires: \(expires)", "User-Agent: Beward DKS (sipp)"]).sippSend(#"retrans="500""#),
            #"  <recv response="200"/>"#,
        ])
    }

    // MARK: counterpart UAS scenarios (to validate the panel scenarios, or to stand in for a phone)

    /// Answers 100 + 180 and waits for CANCEL: replies 200 to it and 487 to the INVITE, expects the ACK.
    package static func ringingUASExpectingCancel() -> String {
        SippScenario.xml("Ringing UAS expecting CANCEL", [
            #"  <recv request="INVITE"/>"#,
            response("100 Trying", toTag: false),
            response("180 Ringing"),
            #"  <recv request="CANCEL"/>"#,
            response("200 OK"),
            response("487 Request Terminated", cseq: "CSeq: 1 INVITE"),
            #"  <recv request="ACK"/>"#,
        ])
    }

    /// Refuses every INVITE with `status` (e.g. "403 Forbidden", "486 Busy Here", "603 Decline") and expects the ACK.
    package static func rejectingUAS(status: String = "403 Forbidden") -> String {
        SippScenario.xml("Rejecting UAS", [
            #"  <recv request="INVITE"/>"#,
            response("100 Trying", toTag: false),
            response(status),
            #"  <recv request="ACK"/>"#,
        ])
    }

    // MARK: pieces

    /// The panel's offer: PCMA + telephone-event, and H.264 when `video`.
    static func offer(user: String, video: Bool) -> String {
        var lines = ["v=0", "o=\(user) 53655765 2353687637 IN IP[local_ip_type] [local_ip]", "s=Beward",
                     "c=IN IP[media_ip_type] [media_ip]", "t=0 0", "m=audio [media_port] RTP/AVP 8 101",
                     "a=rtpmap:8 PCMA/8000", "a=rtpmap:101 telephone-event/8000", "a=fmtp:101 0-15", "a=sendrecv"]
        if video {
            lines += ["m=video [media_port+2] RTP/AVP 96", "a=rtpmap:96 H264/90000",
                      "a=fmtp:96 profile-level-id=420028;packetization-mode=1", "a=sendrecv"]
        }
        return lines.joined(separator: "\n")
    }

    static func invite(user: String, video: Bool, transaction: Bool) -> String {
        SIPMessage.sippRequest("INVITE", user: user, cseq: 1,
                               more: ["User-Agent: Beward DKS (sipp)", "Allow: INVITE, ACK, CANCEL, BYE, OPTIONS, INFO"],
                               body: offer(user: user, video: video))
            .sippSend(#"retrans="500""# + (transaction ? #" start_txn="invite""# : ""))
    }

    static func response(_ status: String, toTag: Bool = true, cseq: String = "[last_CSeq:]") -> String {
        SIPMessage.sippResponse(status, toTag: toTag, cseq: cseq).sippSend()
    }
}
