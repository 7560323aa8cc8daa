import Foundation

/// sipp scenarios for fault and hostile-input tests: a caller that goes silent, INVITEs bent out
/// of shape in one way each, and a scanner's minimal call.
///
/// Branches are spelled out (`z9hG4bK-[pid]-[call_number]-…`) instead of sipp's `[branch-N]`,
/// whose N counts messages back and breaks whenever a scenario gains or loses a step.
package enum FaultScenarios {
    /// One INVITE to send, and how it is bent.
    package struct Invite: Sendable {
        /// The From user: "100001" is the configured panel, anything else an unknown caller.
        package var user = BewardScenarios.panelUser
        /// The INVITE's From display name and URI parameters (in-dialog requests use plain ones: tags match dialogs).
        package var displayName = "Probe"
        package var fromParameters = ""
        package var contact = true
        /// Raw header lines added after the standard ones.
        package var extraHeaders: [String] = []
        /// Extra Via lines under ours, as if the INVITE had crossed that many proxies.
        package var viaChain = 0
        package var contentType = "application/sdp"
        /// The body; nil sends none. `[media_port]`, `[media_ip]` are sipp keywords.
        package var body: String? = FaultScenarios.panelSDP

        package init(user: String = BewardScenarios.panelUser, displayName: String = "Probe", fromParameters: String = "",
                     contact: Bool = true, extraHeaders: [String] = [], viaChain: Int = 0,
                     contentType: String = "application/sdp", body: String? = FaultScenarios.panelSDP) {
            self.user = user
            self.displayName = displayName
            self.fromParameters = fromParameters
            self.contact = contact
            self.extraHeaders = extraHeaders
            self.viaChain = viaChain
            self.contentType = contentType
            self.body = body
        }
    }

    /// A Beward-like offer: PCMA + telephone-event, H.264.
    package static let panelSDP = sdp(media: """
        m=audio [media_port] RTP/AVP 8 101
        a=rtpmap:8 PCMA/8000
        a=rtpmap:101 telephone-event/8000
        a=fmtp:101 0-15
        a=sendrecv
        m=video [media_port+2] RTP/AVP 96
        a=rtpmap:96 H264/90000
        a=fmtp:96 profile-level-id=420028;packetization-mode=1
        a=sendrecv
        """)

    /// An SDP session with `media` as its media lines.
    package static func sdp(media: String, origin: String = "IN IP[local_ip_type] [local_ip]") -> String {
        """
        v=0
        o=panel 53655765 2353687637 \(origin)
        s=Beward
        c=IN IP[media_ip_type] [media_ip]
        t=0 0
        \(media)
        """
    }

    /// The panel calls, is answered, ACKs — and then says nothing: no RTP, no BYE, for a minute.
    package static func silentCall() -> String {
        SippScenario.xml("silent caller", [inviteMessage(Invite())] + SippScenario.provisional() + [
            #"  <recv response="200" rrs="true"/>"#,
            ack2xx(user: BewardScenarios.panelUser),
            SippScenario.pause(.seconds(60)),
        ])
    }

    /// Final responses a probe accepts besides 200: whatever the callee refuses with is recorded,
    /// the test decides whether it was right.
    package static let refusals = [400, 403, 404, 405, 406, 408, 410, 413, 415, 416, 420, 480, 481, 482, 483, 484, 485,
                           486, 487, 488, 491, 493, 494, 500, 501, 502, 503, 504, 505, 513, 600, 603, 604, 606]

    /// Sends `invite`; a 200 is ACKed and the call hung up with BYE after `talk`, a refusal is ACKed.
    /// sipp fails (times out) only when nothing final comes back.
    package static func probe(_ invite: Invite, talk: Duration = .milliseconds(300)) -> String {
        let refusalLines = refusals.enumerated().map { index, code in
            let optional = index == refusals.count - 1 ? "" : " optional=\"true\""
            return "  <recv response=\"\(code)\"\(optional) next=\"refused\"/>"
        }
        return SippScenario.xml("hostile probe", [inviteMessage(invite)] + SippScenario.provisional() + [
            #"  <recv response="200" optional="true" rrs="true" next="answered"/>"#,
        ] + refusalLines + [
            #"  <label id="answered"/>"#,
            ack2xx(user: invite.user),
            SippScenario.pause(talk),
            SIPMessage.sippRequest("BYE", user: invite.user, displayName: "Probe", cseq: 2, branch: branch("bye"),
                                   inDialog: true, contact: false).sippSend(#"retrans="500""#),
            #"  <recv response="200" next="done"/>"#,
            #"  <label id="refused"/>"#,
            SIPMessage.sippRequest("ACK", user: invite.user, displayName: "Probe", cseq: 1, branch: branch("inv"),
                                   contact: false).sippSend(),
            #"  <label id="done"/>"#,
            #"  <pause milliseconds="10"/>"#,
        ])
    }

    /// A scanner's call (sipvicious and friends): a bare audio offer from `user`, which must be refused
    /// with 403 and is ACKed.
    package static func scan(user: String = "scanner") -> String {
        let invite = Invite(user: user, body: sdp(media: "m=audio [media_port] RTP/AVP 0 8\na=sendrecv"))
        return SippScenario.xml("scan", [inviteMessage(invite)] + SippScenario.provisional() + [
            #"  <recv response="403"/>"#,
            SIPMessage.sippRequest("ACK", user: user, displayName: nil, cseq: 1, branch: branch("inv"), contact: false).sippSend(),
        ])
    }

    // MARK: pieces

    /// `z9hG4bK-[pid]-[call_number]-STEP`: one spelled-out branch per request of the call.
    private static func branch(_ step: String) -> String { "z9hG4bK-[pid]-[call_number]-\(step)" }

    private static func inviteMessage(_ invite: Invite) -> String {
        // Proxies we never were: unreachable documentation addresses, each with its own branch.
        let vias = (0..<invite.viaChain).map { "Via: SIP/2.0/UDP 192.0.2.\($0 % 250 + 1):5060;branch=z9hG4bK-hop\($0)-[call_number]" }
        return SIPMessage.sippRequest("INVITE", user: invite.user, displayName: invite.displayName, cseq: 1, branch: branch("inv"),
                                      vias: vias, fromParameters: invite.fromParameters, contact: invite.contact,
                                      more: ["User-Agent: intercom fault tests (sipp)"] + invite.extraHeaders,
                                      contentType: invite.contentType, body: invite.body)
            .sippSend(#"retrans="500""#)
    }

    private static func ack2xx(user: String) -> String {
        SIPMessage.sippRequest("ACK", user: user, displayName: "Probe", cseq: 1, branch: branch("ack"), inDialog: true).sippSend()
    }
}
