import Synchronization

/// The messages the read hook kept from belle-sip since the phone thread last looked: how many,
/// and the last one's reason and source, so the log can say what was dropped and from where.
/// Process-wide because the hook is (one exported `bctbx_recvfrom` for every core).
final class SIPIngressRefusals: Sendable {
    static let shared = SIPIngressRefusals()

    struct Report: Sendable, Equatable {
        var count: Int
        var refusal: SIPHeaderScreen.Refusal
        var source: String
    }

    private let pending = Mutex<Report?>(nil)

    func note(_ refusal: SIPHeaderScreen.Refusal, from source: String) {
        pending.withLock { report in
            report = Report(count: (report?.count ?? 0) + 1, refusal: refusal, source: source)
        }
    }

    /// What was refused since the last call, and clears it.
    func take() -> Report? {
        pending.withLock { report in
            defer { report = nil }
            return report
        }
    }
}
