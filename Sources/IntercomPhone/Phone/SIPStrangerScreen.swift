/// What a stranger — a source that is no configured panel, registrar or proxy — may send us: the
/// read gate's decision for one SIP message, on its bytes alone (the dialog ledger is asked
/// through `knownDialog`). Strangers may ring (a new INVITE goes on to the caller gate) and may
/// go on with a dialog we have with them; every other request is answered here and never reaches
/// liblinphone, which stored 2.4 MB of chat for 2 000 strangers' MESSAGEs. Chat, presence and
/// publications are refused from trusted sources too (`judgeTrusted`).
enum SIPStrangerScreen {
    enum Verdict: Equatable {
        /// A response, or a request of a dialog this source has with us: belle-sip reads it.
        case pass
        /// A new INVITE: today's caller gate decides (`unknown_callers`, impostors).
        case newCall
        /// Answered here with `status` (an `Allow:` header with 405) and kept from belle-sip.
        case refuse(status: String)
        /// Kept from belle-sip unanswered: an ACK (never answered), or bytes that are not exactly one
        /// whole message (what belle-sip would join with the next datagram, or read past).
        case drop(String)
    }

    /// Methods the product never takes from anyone (chat, presence, publication): 405 with `Allow`.
    static let neverAccepted: Set<String> = ["MESSAGE", "SUBSCRIBE", "PUBLISH"]
    /// What we do take (from panels and the registrar; from strangers only inside a dialog).
    static let allowed = "INVITE, ACK, CANCEL, BYE, UPDATE, PRACK, INFO, NOTIFY, REFER, OPTIONS"
    static let methodNotAllowed = "405 Method Not Allowed"
    static let forbidden = "403 Forbidden"

    /// The decision for a head that ended (`head`), where `knownDialog` says whether a Call-ID is a
    /// dialog of this source.
    static func judge(_ head: SIPRequestHead, knownDialog: (String) -> Bool) -> Verdict {
        guard let method = head.method else { return isStatusLine(head.startLine) ? .pass : .drop("a start line that is no SIP response") }
        guard isRequestLine(head.startLine) else { return .drop("a start line that is no SIP request") }
        if let callID = head.first("call-id"), knownDialog(callID) { return .pass }
        if method == "INVITE" && !head.hasToTag { return .newCall }
        if method == "ACK" { return .drop("an ACK outside any dialog") }
        return .refuse(status: neverAccepted.contains(method) ? methodNotAllowed : forbidden)
    }

    /// The decision for a panel's, the registrar's or proxy's request: everything passes but what the
    /// product takes from nobody, which liblinphone would otherwise keep (presence subscribers) even
    /// with its chat and presence off.
    static func judgeTrusted(_ head: SIPRequestHead) -> Verdict {
        guard let method = head.method, neverAccepted.contains(method) else { return .pass }
        return .refuse(status: methodNotAllowed)
    }

    /// Whether a message may be one `judgeTrusted` refuses: a cheap look before parsing its head.
    static func mayBeNeverAccepted<Bytes: Collection>(_ message: Bytes) -> Bool where Bytes.Element == UInt8 {
        neverAcceptedPrefixes.contains { message.starts(with: $0) }
    }

    private static let neverAcceptedPrefixes = neverAccepted.map { Array(($0 + " ").utf8) }

    /// The decision for one datagram (leading CR and LF skipped): it must hold exactly one whole
    /// message, since belle-sip keeps a partial one and joins it with the peer's next datagram, and
    /// reads on past a message's Content-Length.
    static func judgeDatagram<Bytes: Collection>(_ datagram: Bytes, knownDialog: (String) -> Bool) -> Verdict
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let message = datagram.drop { $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }
        // Responses too: "SIP/2.0 200 OK" with a request behind it in the same datagram is two messages.
        guard let first = message.first else { return .pass }
        guard first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z"),
              let end = SIPMessageFraming.endOfHead(message), let head = SIPRequestHead(message[..<end]) else {
            return .drop("no whole SIP message")
        }
        guard let length = SIPMessageFraming.contentLength(head) else { return .drop("an unreadable Content-Length") }
        let body = message[end...]
        guard body.count >= length else { return .drop("a body shorter than its Content-Length") }
        guard body.dropFirst(length).allSatisfy(SIPMessageFraming.isBlank),
              !SIPMessageFraming.carriesRequestLine(body) else { return .drop("more than one message") }
        return judge(head, knownDialog: knownDialog)
    }

    /// `SIP/2.0 SP 3DIGIT SP reason`.
    static func isStatusLine(_ line: String) -> Bool {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "SIP/2.0", parts[1].utf8.count == 3 else { return false }
        return parts[1].utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// `METHOD SP Request-URI SP SIP/2.0`, the method in upper-case letters: anything else is not
    /// what belle-sip reads as this request.
    static func isRequestLine(_ line: String) -> Bool {
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2] == "SIP/2.0", !parts[1].isEmpty, !parts[0].isEmpty else { return false }
        return parts[0].utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }
}

/// Where a SIP message's head and body end, read as belle-sip reads them: the head ends at the
/// first CRLF CRLF, the body is Content-Length bytes (none without the header).
enum SIPMessageFraming {
    private static let headEnd = Array("\r\n\r\n".utf8)

    /// The index just past the CRLF CRLF that ends the head; nil while it has not arrived.
    static func endOfHead<Bytes: Collection>(_ bytes: Bytes) -> Int? where Bytes.Element == UInt8, Bytes.Index == Int {
        guard bytes.count >= 4 else { return nil }
        var index = bytes.startIndex
        while index + 4 <= bytes.endIndex {
            if bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                return index + 4
            }
            index += 1
        }
        return nil
    }

    /// The body's length: 0 without Content-Length, nil when its value is no plain number (belle-sip
    /// would then drop the head and read its body as the next message).
    static func contentLength(_ head: SIPRequestHead) -> Int? {
        guard let value = head.first("content-length") else { return 0 }
        guard !value.isEmpty, value.count <= 9, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(value)
    }

    static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    private static let requestLineEnd = Array(" SIP/2.0\r\n".utf8)

    /// Whether a body holds the end of a request line: no SDP or sipfrag does (a sipfrag carries a
    /// status line, `SIP/2.0 200 OK`), and belle-sip reads one as a request when it could not parse the head before.
    static func carriesRequestLine<Bytes: Collection>(_ body: Bytes) -> Bool where Bytes.Element == UInt8, Bytes.Index == Int {
        let needle = requestLineEnd
        guard body.count >= needle.count else { return false }
        var index = body.startIndex
        while index + needle.count <= body.endIndex {
            if body[index] == needle[0] && body[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
