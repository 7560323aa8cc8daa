import Foundation
import IntercomBase

/// One log line per 10 s for calls refused by who they are, so a scan cannot fill the log; the
/// line names both the address the packets came from and what the headers claimed. Each owner
/// (the phone thread's datagram guard, the engine) keeps its own.
package struct RefusedCallerLog {
    private var throttle = LogThrottle(every: .seconds(10))
    package private(set) var total = 0

    package init() {}

    package mutating func note(_ verdict: CallerVerdict, from: String, source: String?, logger: Logger) {
        if case .panel = verdict { return }
        total += 1
        guard let count = throttle.admit() else { return }
        let more = count > 1 ? " (\(count - 1) more since the last line)" : ""
        let caller = SIPURI.addressSpec(in: from)
        let address = source ?? "an unknown address"
        switch verdict {
        case .impostor(let panel, let expected):
            let known = expected.isEmpty ? "nowhere (its url host does not resolve)" : expected.joined(separator: ", ")
            logger.warning("refused a call from \(address) that claims to be panel \(panel) (\(caller)): that panel's packets come from \(known); if it really calls from \(address), add it to [panel \(panel)] source\(more)")
        case .stranger:
            logger.notice("rejected call from \(caller) (\(address)): it matches no panel and [sip] unknown_callers = reject\(more)")
        case .panel, .operatorPanel:
            break
        }
    }
}
