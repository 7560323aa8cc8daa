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
        """
        <?xml version="1.0" encoding="ISO-8859-1" ?>
        <!DOCTYPE scenario SYSTEM "sipp.dtd">
        <scenario name="silent caller">
        \(inviteMessage(Invite()))
          <recv response="100" optional="true"/>
          <recv response="180" optional="true"/>
          <recv response="183" optional="true"/>
          <recv response="200" rrs="true"/>
        \(ack2xx(user: BewardScenarios.panelUser))
          <pause milliseconds="60000"/>
        </scenario>

        """
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
        }.joined(separator: "\n")
        return """
        <?xml version="1.0" encoding="ISO-8859-1" ?>
        <!DOCTYPE scenario SYSTEM "sipp.dtd">
        <scenario name="hostile probe">
        \(inviteMessage(invite))
          <recv response="100" optional="true"/>
          <recv response="180" optional="true"/>
          <recv response="183" optional="true"/>
          <recv response="200" optional="true" rrs="true" next="answered"/>
        \(refusalLines)
          <label id="answered"/>
        \(ack2xx(user: invite.user))
          <pause milliseconds="\(milliseconds(talk))"/>
          <send retrans="500">
            <![CDATA[

              BYE [next_url] SIP/2.0
              Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=z9hG4bK-[pid]-[call_number]-bye
              [routes]
              From: "Probe" <sip:\(invite.user)@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
              To: <sip:[service]@[remote_ip]:[remote_port]>[peer_tag_param]
              Call-ID: [call_id]
              CSeq: 2 BYE
              Max-Forwards: 70
              Content-Length: 0

            ]]>
          </send>
          <recv response="200" next="done"/>
          <label id="refused"/>
          <send>
            <![CDATA[

              ACK sip:[service]@[remote_ip]:[remote_port] SIP/2.0
              Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=z9hG4bK-[pid]-[call_number]-inv
              From: "Probe" <sip:\(invite.user)@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
              To: <sip:[service]@[remote_ip]:[remote_port]>[peer_tag_param]
              Call-ID: [call_id]
              CSeq: 1 ACK
              Max-Forwards: 70
              Content-Length: 0

            ]]>
          </send>
          <label id="done"/>
          <pause milliseconds="10"/>
        </scenario>

        """
    }

    /// A scanner's call (sipvicious and friends): a bare audio offer from `user`, which must be refused
    /// with 403 and is ACKed.
    package static func scan(user: String = "scanner") -> String {
        let invite = Invite(user: user, body: sdp(media: "m=audio [media_port] RTP/AVP 0 8\na=sendrecv"))
        return """
        <?xml version="1.0" encoding="ISO-8859-1" ?>
        <!DOCTYPE scenario SYSTEM "sipp.dtd">
        <scenario name="scan">
        \(inviteMessage(invite))
          <recv response="100" optional="true"/>
          <recv response="180" optional="true"/>
          <recv response="183" optional="true"/>
          <recv response="403"/>
          <send>
            <![CDATA[

              ACK sip:[service]@[remote_ip]:[remote_port] SIP/2.0
              Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=z9hG4bK-[pid]-[call_number]-inv
              From: <sip:\(user)@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
              To: <sip:[service]@[remote_ip]:[remote_port]>[peer_tag_param]
              Call-ID: [call_id]
              CSeq: 1 ACK
              Max-Forwards: 70
              Content-Length: 0

            ]]>
          </send>
        </scenario>

        """
    }

    // MARK: pieces

    private static func inviteMessage(_ invite: Invite) -> String {
        var headers = [
            "INVITE sip:[service]@[remote_ip]:[remote_port] SIP/2.0",
            "Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=z9hG4bK-[pid]-[call_number]-inv",
        ]
        // Proxies we never were: unreachable documentation addresses, each with its own branch.
        for hop in 0..<invite.viaChain {
            headers.append("Via: SIP/2.0/UDP 192.0.2.\(hop % 250 + 1):5060;branch=z9hG4bK-hop\(hop)-[call_number]")
        }
        headers += [
            "From: \"\(invite.displayName)\" <sip:\(invite.user)@[local_ip]:[local_port]\(invite.fromParameters)>;tag=[pid]SIPpTag00[call_number]",
            "To: <sip:[service]@[remote_ip]:[remote_port]>",
            "Call-ID: [call_id]",
            "CSeq: 1 INVITE",
        ]
        if invite.contact { headers.append("Contact: <sip:\(invite.user)@[local_ip]:[local_port]>") }
        headers += ["Max-Forwards: 70", "User-Agent: intercom fault tests (sipp)"]
        headers += invite.extraHeaders
        if let body = invite.body {
            headers += ["Content-Type: \(invite.contentType)", "Content-Length: [len]", "", body]
        } else {
            headers += ["Content-Length: 0"]
        }
        return """
              <send retrans="500">
                <![CDATA[

            \(headers.joined(separator: "\n"))

                ]]>
              </send>
            """
    }

    private static func ack2xx(user: String) -> String {
        """
          <send>
            <![CDATA[

              ACK [next_url] SIP/2.0
              Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=z9hG4bK-[pid]-[call_number]-ack
              [routes]
              From: "Probe" <sip:\(user)@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
              To: <sip:[service]@[remote_ip]:[remote_port]>[peer_tag_param]
              Call-ID: [call_id]
              CSeq: 1 ACK
              Contact: <sip:\(user)@[local_ip]:[local_port]>
              Max-Forwards: 70
              Content-Length: 0

            ]]>
          </send>
        """
    }

    private static func milliseconds(_ d: Duration) -> Int {
        Int(d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000)
    }
}
