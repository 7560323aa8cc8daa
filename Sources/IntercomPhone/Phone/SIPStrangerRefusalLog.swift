import IntercomBase

/// One log line per 10 s for strangers' requests refused at the read, so a flood cannot fill the
/// log: how many since the last line, and the last one's method, source and answer. No event and no
/// journal entry: nothing happened to the home.
struct SIPStrangerRefusalLog {
    private var throttle = LogThrottle(every: .seconds(10))
    private(set) var total = 0

    mutating func note(_ verdict: SIPStrangerScreen.Verdict, method: String?, from source: String, logger: Logger) {
        total += 1
        guard let count = throttle.admit() else { return }
        let more = count > 1 ? " (\(count - 1) more since the last line)" : ""
        let what: String
        switch verdict {
        case .refuse(let status): what = "refused a SIP \(method ?? "request") from \(source) with \(status)"
        case .drop(let reason): what = "dropped \(reason) from \(source)"
        case .pass, .newCall: return
        }
        logger.notice("\(what): it is no panel, registrar or proxy and has no call with us\(more)")
    }
}
