import IntercomBase
import Synchronization

/// The dialogs each address has with us: a Call-ID seen in an INVITE the read gate let through
/// from that address (or, from a panel or the registrar, naming that address in its Contact: a
/// call the registrar forwards is then ACKed and hung up directly), or in anything belle-sip sent
/// there (our calls, call-backs and transfers, our answers to its requests). A request from a stranger (no panel, registrar or proxy) reaches
/// liblinphone only inside such a dialog (`SIPStrangerScreen`). Only what we sent or admitted
/// counts: a stranger's own messages, To-tags included, never open a dialog.
///
/// Process-wide because the hooks are (one exported `bctbx_sendto` for every core), a
/// `Mutex`-guarded `let`. Bounded: the oldest pair goes first once `capacity` are known, so a
/// flood of admitted strangers' calls can push out an old non-panel dialog (its later requests
/// then get 403), never grow memory.
final class SIPDialogLedger: Sendable {
    static let shared = SIPDialogLedger()
    static let capacity = 1024

    private struct Pairs: Sendable {
        var known: Set<String> = []
        var order: [String] = []
        var head = 0
        /// How many pairs each address has.
        var perHost: [String: Int] = [:]
    }

    private let pairs = Mutex(Pairs())

    /// An address however it is spelled (a Contact's `::1` and a socket's `0:0:…:1` are one host).
    /// An address however it is spelled (a Contact's `::1` and a socket's `0:0:…:1` are one host).
    private static func address(_ host: String) -> String {
        IPLiteral.canonicalBytes(host).map { $0.map { String($0) }.joined(separator: ".") } ?? host.lowercased()
    }

    private static let separator: Character = "\u{0}"

    private static func key(_ callID: String, _ host: String) -> String {
        address(host) + String(separator) + callID
    }

    func note(callID: String, host: String) {
        let key = Self.key(callID, host)
        pairs.withLock { state in
            guard state.known.insert(key).inserted else { return }
            state.perHost[Self.address(host), default: 0] += 1
            if state.order.count < Self.capacity {
                state.order.append(key)
            } else {
                let gone = state.order[state.head]
                state.known.remove(gone)
                let goneHost = String(gone.prefix { $0 != Self.separator })
                if let count = state.perHost[goneHost], count > 1 { state.perHost[goneHost] = count - 1 } else { state.perHost[goneHost] = nil }
                state.order[state.head] = key
                state.head = (state.head + 1) % Self.capacity
            }
        }
    }

    func knows(callID: String, host: String) -> Bool {
        pairs.withLock { $0.known.contains(Self.key(callID, host)) }
    }

    /// Whether `host` has any dialog with us: if not, nothing belle-sip holds for it is worth keeping.
    func hasDialogs(with host: String) -> Bool {
        pairs.withLock { $0.perHost[Self.address(host)] != nil }
    }

    /// What belle-sip sent to `host` (one datagram, or one TCP write): every Call-ID in it is a dialog with that host.
    func observeSent(_ bytes: UnsafeRawBufferPointer, to host: @autoclosure () -> String?) {
        let callIDs = SIPCallIDScanner.callIDs(in: bytes)
        guard !callIDs.isEmpty, let host = host() else { return }
        for callID in callIDs { note(callID: callID, host: host) }
    }
}
