/// A final response to a request, built without belle-sip (RFC 3261 §8.2.6: Via, From, Call-ID
/// and CSeq copied, To given a tag). The tag is derived from the request, so a retransmitted
/// INVITE gets the very same answer.
enum SIPStatelessReply {
    /// `status` like "403 Forbidden", with an `Allow:` header when `allow` is given (405); nil when the
    /// request lacks a header the answer needs.
    static func response(_ status: String, to request: SIPRequestHead, allow: String? = nil) -> [UInt8]? {
        let vias = request.all("via")
        guard !vias.isEmpty, let from = request.first("from"), let to = request.first("to"),
              let callID = request.first("call-id"), let cseq = request.first("cseq") else { return nil }
        let tagged = request.hasToTag ? to : "\(to);tag=\(tag(callID: callID, from: from))"
        var lines = ["SIP/2.0 \(status)"]
        lines += vias.map { "Via: \($0)" }
        lines += ["From: \(from)", "To: \(tagged)", "Call-ID: \(callID)", "CSeq: \(cseq)"]
        if let allow { lines.append("Allow: \(allow)") }
        lines += ["Content-Length: 0", "", ""]
        return Array(lines.joined(separator: "\r\n").utf8)
    }

    /// FNV-1a of the Call-ID and From: stable per call, different between calls.
    private static func tag(callID: String, from: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (callID + "|" + from).utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 36)
    }
}
