import Synchronization

/// What became of our transfers, as the other side said it: liblinphone 5.1 reports a REFER's
/// progress as a bare call state (Error, whatever the reason), but the NOTIFY that carried it
/// holds the target's status line in its `message/sipfrag` body ("SIP/2.0 486 Busy Here"). The
/// read hook shows every SIP read here; a NOTIFY of `Event: refer` with a final status is kept by
/// its Call-ID (our call with the panel) until the phone thread takes it as the transfer fails.
/// Process-wide because the hook is. Anything else costs one look at its first bytes.
final class SIPTransferReports: Sendable {
    static let shared = SIPTransferReports()
    private let statuses = Mutex<(byCallID: [String: String], order: [String])>(([:], []))
    static let capacity = 64

    func observe(_ bytes: UnsafeRawBufferPointer) {
        guard let (callID, status) = Self.referOutcome(in: bytes) else { return }
        statuses.withLock { state in
            if state.byCallID.updateValue(status, forKey: callID) == nil { state.order.append(callID) }
            while state.order.count > Self.capacity { state.byCallID.removeValue(forKey: state.order.removeFirst()) }
        }
    }

    /// The final status line the other side reported for the transfer of this call (`486 Busy Here`), taken out.
    func take(callID: String) -> String? {
        statuses.withLock { state in
            guard let status = state.byCallID.removeValue(forKey: callID) else { return nil }
            state.order.removeAll { $0 == callID }
            return status
        }
    }

    /// The Call-ID and final sipfrag status of a NOTIFY for a REFER; nil for anything else.
    static func referOutcome(in bytes: UnsafeRawBufferPointer) -> (callID: String, status: String)? {
        let start = bytes.firstIndex { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") } ?? bytes.count
        guard bytes.count - start > notify.count,
              zip(bytes[start...], notify).allSatisfy({ $0 == $1 }) else { return nil }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start...]), as: UTF8.self)
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        guard let split = normalized.range(of: "\n\n") else { return nil }
        var callID: String?
        var isRefer = false
        for line in normalized[..<split.lowerBound].split(separator: "\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "call-id" || name == "i" { callID = value }
            if name == "event" || name == "o" { isRefer = value.lowercased().hasPrefix("refer") }
        }
        let body = normalized[split.upperBound...].drop { $0 == "\n" }
        guard isRefer, let callID, !callID.isEmpty, body.hasPrefix("SIP/2.0 ") else { return nil }
        let status = body.dropFirst("SIP/2.0 ".count).prefix { $0 != "\n" }.trimmingCharacters(in: .whitespaces)
        guard let code = Int(status.prefix(3)), code >= 200, code < 700 else { return nil }
        return (callID, String(status.prefix(120)))
    }

    private static let notify = Array("NOTIFY ".utf8)

    /// Words for a failed transfer's status line: what a desk needs to do next differs for a flat
    /// that is busy, one that does not exist, one that did not answer and one that refused.
    static func describe(_ status: String) -> String {
        let code = Int(status.prefix(3)) ?? 0
        let kind = switch code {
        case 486, 600: "busy"
        case 404, 484, 604: "not found"
        case 408, 480, 487: "timeout: nobody answered"
        case 403, 405, 488, 603: "refused"
        default: "failed"
        }
        return "\(kind) (\(status))"
    }
}
