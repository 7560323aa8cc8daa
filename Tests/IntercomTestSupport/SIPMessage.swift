import Foundation

/// One builder for the SIP messages the tests send: the steps of sipp scenarios (sipp's `[keywords]` fill
/// in addresses, tags, branches and lengths) and raw requests a test writes to a socket itself. A message
/// is its start line, its header lines in order and an optional body; `sippSend` wraps it in sipp's
/// `<send>`, `wire` spells it as it goes on the network.
package struct SIPMessage: Sendable {
    package var startLine: String
    /// Header lines (`Name: value`) in order, or a sipp keyword that stands for some (`[routes]`, `[last_Via:]`).
    package var headers: [String]
    package var contentType: String
    /// nil: no body, `Content-Length: 0`.
    package var body: String?

    package init(_ startLine: String, headers: [String], contentType: String = "application/sdp", body: String? = nil) {
        self.startLine = startLine
        self.headers = headers
        self.contentType = contentType
        self.body = body
    }

    /// The message with `\n` line ends and `Content-Length: [len]` for a body: sipp sends CRLF and counts itself.
    package var sipp: String {
        guard let body else { return ([startLine] + headers + ["Content-Length: 0"]).joined(separator: "\n") }
        return ([startLine] + headers + ["Content-Type: \(contentType)", "Content-Length: [len]", "", body]).joined(separator: "\n")
    }

    /// The message on the wire: CRLF line ends and the body's byte count.
    package var wire: String {
        let crlf = { (text: String) in text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n") }
        guard let body = body.map(crlf) else { return ([startLine] + headers + ["Content-Length: 0", "", ""]).joined(separator: "\r\n") }
        return ([startLine] + headers + ["Content-Type: \(contentType)", "Content-Length: \(body.utf8.count)", "", body])
            .joined(separator: "\r\n")
    }

    /// sipp's `<send>` step carrying this message; `attributes` such as `retrans="500" start_txn="invite"`.
    package func sippSend(_ attributes: String = "") -> String {
        """
          <send\(attributes.isEmpty ? "" : " " + attributes)>
            <![CDATA[

        \(sipp)

            ]]>
          </send>
        """
    }
}

// MARK: sipp's side of a call

extension SIPMessage {
    /// The Request-URI and To of the called side, from sipp's `-s` service and remote address.
    package static let sippCallee = "sip:[service]@[remote_ip]:[remote_port]"

    /// A From (or Contact) address of sipp's own side: `user` at sipp's local address.
    package static func sippLocal(_ user: String) -> String { "sip:\(user)@[local_ip]:[local_port]" }

    /// A request from sipp's side of a call it placed. `inDialog`: sent to the dialog's remote target
    /// (`[next_url]`, with `[routes]`) and to the tag the callee gave (an ACK always carries that tag);
    /// `contact`: a Contact naming `user`; `vias`: more Via lines under sipp's own. `from` is the whole From
    /// value when the default (`"NAME" <sip:USER@local PARAMETERS>;tag=…`) will not do.
    package static func sippRequest(_ method: String, user: String, displayName: String? = "Panel", cseq: Int,
                                    branch: String = "[branch]", inDialog: Bool = false, requestURI: String? = nil,
                                    vias: [String] = [], fromParameters: String = "", from: String? = nil,
                                    contact: Bool = true, more: [String] = [], contentType: String = "application/sdp",
                                    body: String? = nil) -> SIPMessage {
        let name = displayName.map { "\"\($0)\" " } ?? ""
        var headers = ["Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=\(branch)"] + vias
        if inDialog { headers.append("[routes]") }
        headers += [
            "From: " + (from ?? "\(name)<\(sippLocal(user))\(fromParameters)>;tag=[pid]SIPpTag00[call_number]"),
            "To: <\(sippCallee)>" + (inDialog || method == "ACK" ? "[peer_tag_param]" : ""),
            "Call-ID: [call_id]",
            "CSeq: \(cseq) \(method)",
        ]
        if contact { headers.append("Contact: <\(sippLocal(user))>") }
        headers.append("Max-Forwards: 70")
        return SIPMessage("\(method) \(requestURI ?? (inDialog ? "[next_url]" : sippCallee)) SIP/2.0", headers: headers + more,
                          contentType: contentType, body: body)
    }

    /// sipp answering the request it last received with `status` (e.g. "180 Ringing"): its Via, From,
    /// To (with a tag of its own when `toTag`), Call-ID and `cseq` copied.
    package static func sippResponse(_ status: String, toTag: Bool = true, cseq: String = "[last_CSeq:]") -> SIPMessage {
        SIPMessage("SIP/2.0 \(status)", headers: [
            "[last_Via:]", "[last_From:]", "[last_To:]" + (toTag ? ";tag=[pid]SIPpTag01[call_number]" : ""),
            "[last_Call-ID:]", cseq, "Contact: <sip:[local_ip]:[local_port];transport=[transport]>",
        ])
    }
}

/// A whole sipp scenario file around its steps.
package enum SippScenario {
    package static func xml(_ name: String, _ steps: [String]) -> String {
        """
        <?xml version="1.0" encoding="ISO-8859-1" ?>
        <!DOCTYPE scenario SYSTEM "sipp.dtd">
        <scenario name="\(name)">
        \(steps.joined(separator: "\n"))
        </scenario>

        """
    }

    /// `<pause milliseconds=…/>` for `d`.
    package static func pause(_ d: Duration) -> String {
        "  <pause milliseconds=\"\(Int(d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000))\"/>"
    }

    /// `<recv response="100" optional="true"/>` and the like for provisional answers before the final one.
    package static func provisional(_ codes: [Int] = [100, 180, 183], attributes: String = "") -> [String] {
        codes.map { "  <recv response=\"\($0)\" optional=\"true\"\(attributes.isEmpty ? "" : " " + attributes)/>" }
    }
}
