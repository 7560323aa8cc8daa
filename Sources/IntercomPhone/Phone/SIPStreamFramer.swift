/// Cuts one TCP connection's byte stream into SIP messages as belle-sip will (the head ends at
/// CRLF CRLF, then Content-Length bytes of body), so the read gate can judge each message's head
/// however the stream was segmented: several messages in one read, or one message over several.
/// A head that has not ended is held back here (belle-sip sees it only once judged); a refused
/// message's head and body are cut out of what belle-sip reads. One framer per connection, from
/// a peer that is no panel, registrar or proxy (DECISIONS "Strangers get nothing").
struct SIPStreamFramer {
    /// The longest head held back while waiting for its end; a longer one ends the connection
    /// (belle-sip's own buffer is 64 KB, and real heads are under 2 KB).
    static let maxHeldHead = 16 * 1024

    /// The start of a message whose head has not ended yet.
    private(set) var held: [UInt8] = []
    private var bodyLeft = 0
    private var bodyPasses = true
    /// The last bytes of the body so far, so a request line split across reads is still found.
    private var bodyTail: [UInt8] = []

    /// What to do with a whole head: true lets the message through (it is answered elsewhere when not).
    typealias Judge = (ArraySlice<UInt8>) -> Bool

    /// The bytes belle-sip may read of `held` + `bytes`; nil ends the connection (no SIP start, a head
    /// too long, a body that carries a request line, a Content-Length that is no number).
    mutating func feed(_ bytes: UnsafeRawBufferPointer, judge: Judge) -> [UInt8]? {
        var input = held
        input.append(contentsOf: bytes)
        held.removeAll(keepingCapacity: true)
        var out: [UInt8] = []
        out.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            if bodyLeft > 0 {
                let take = min(bodyLeft, input.count - index)
                let chunk = input[index..<(index + take)]
                if bodyPasses {
                    bodyTail.append(contentsOf: chunk)
                    if SIPMessageFraming.carriesRequestLine(bodyTail) { return nil }
                    bodyTail = Array(bodyTail.suffix(16))
                    out.append(contentsOf: chunk)
                }
                bodyLeft -= take
                index += take
                continue
            }
            // Between messages: CR and LF (keep-alives) go on to belle-sip, which skips them.
            if input[index] == UInt8(ascii: "\r") || input[index] == UInt8(ascii: "\n") {
                out.append(input[index])
                index += 1
                continue
            }
            let first = input[index]
            guard first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z") else { return nil }
            let rest = input[index...]
            guard let end = SIPMessageFraming.endOfHead(rest) else {
                guard rest.count <= Self.maxHeldHead else { return nil }
                held = Array(rest)
                break
            }
            let head = input[index..<end]
            guard let parsed = SIPRequestHead(head), let length = SIPMessageFraming.contentLength(parsed) else { return nil }
            bodyPasses = judge(head)
            if bodyPasses { out.append(contentsOf: head) }
            bodyLeft = length
            bodyTail.removeAll(keepingCapacity: true)
            index = end
        }
        return out
    }
}
