import Foundation

/// One log line per 10 s for calls refused by who they are, so a scan cannot fill the log; the
/// line names both the address the packets came from and what the headers claimed. Each owner
/// (the phone thread's datagram guard, the engine) keeps its own.
package struct RefusedCallerLog {
    private var suppressed = 0
    private var lastLine = Date.distantPast
    package private(set) var total = 0

    package init() {}

    package mutating func note(_ verdict: CallerVerdict, from: String, source: String?, logger: Logger, now: Date = Date()) {
        total += 1
        guard now.timeIntervalSince(lastLine) >= 10 else {
            suppressed += 1
            return
        }
        let more = suppressed > 0 ? " (\(suppressed) more since the last line)" : ""
        let caller = CallerMatch.bareURI(from)
        let address = source ?? "an unknown address"
        switch verdict {
        case .impostor(let panel, let expected):
            let known = expected.isEmpty ? "nowhere (its url host does not resolve)" : expected.joined(separator: ", ")
            logger.warning("refused a call from \(address) that claims to be panel \(panel) (\(caller)): that panel's packets come from \(known); if it really calls from \(address), add it to [panel \(panel)] source\(more)")
        case .stranger:
            logger.notice("rejected call from \(caller) (\(address)): it matches no panel and [sip] unknown_callers = reject\(more)")
        case .panel:
            return
        }
        suppressed = 0
        lastLine = now
    }
}
