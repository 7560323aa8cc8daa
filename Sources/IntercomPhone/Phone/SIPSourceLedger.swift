import Synchronization

/// Where each SIP call came from, as the transport saw it: the read hook (CSIPIngress) shows
/// every message belle-sip reads with its source address (a datagram's sender, a TCP
/// connection's peer), and the phone thread asks here, when liblinphone reports a new call,
/// where that call's INVITE came from. Headers (From, Contact, Via) are the caller's own words;
/// this is the one fact about a caller it cannot write.
///
/// Process-wide because the hook is: belle-sip calls one exported `bctbx_recvfrom` for every
/// core in the process. Only INVITEs are noted, and a lookup takes its entry out (a later
/// retransmission puts it back, no harm); the oldest are forgotten first. A call is looked up
/// while liblinphone handles its INVITE, long before hundreds of others could arrive.
final class SIPSourceLedger: Sendable {
    static let shared = SIPSourceLedger()

    /// A Call-ID seen from two addresses has no trustworthy source.
    private enum Seen: Sendable { case from(String), conflicting }

    private struct Entries: Sendable {
        var byCallID: [String: Seen] = [:]
        var order: [String] = []
        var head = 0
    }

    private let entries = Mutex(Entries())
    static let capacity = 512

    /// Notes the Call-IDs of the INVITEs in `bytes` (one datagram, or one TCP read) as coming from `address`.
    func observe(_ bytes: UnsafeRawBufferPointer, from address: @autoclosure () -> String?) {
        let callIDs = SIPCallIDScanner.inviteCallIDs(in: bytes)
        guard !callIDs.isEmpty, let address = address() else { return }
        entries.withLock { state in
            for callID in callIDs {
                if let seen = state.byCallID[callID] {
                    if case .from(let known) = seen, known != address { state.byCallID[callID] = .conflicting }
                    continue
                }
                state.byCallID[callID] = .from(address)
                if state.order.count < Self.capacity {
                    state.order.append(callID)
                } else {
                    state.byCallID.removeValue(forKey: state.order[state.head])
                    state.order[state.head] = callID
                    state.head = (state.head + 1) % Self.capacity
                }
            }
        }
    }

    /// The address the call's INVITE came from, taken out of the ledger; nil when unseen or seen
    /// from several addresses.
    func takeSource(callID: String) -> String? {
        entries.withLock { state in
            // Its slot in `order` stays until overwritten; removing a missing key then is harmless.
            guard case .from(let address) = state.byCallID.removeValue(forKey: callID) else { return nil }
            return address
        }
    }
}
