import IntercomBase

/// One log line per 10 s for requests refused at the read (strangers', and anyone's chat, presence
/// and publications), so a flood cannot fill the log: how many since the last line, and the last
/// one's method, source and answer. No event and no journal entry: nothing happened to the home.
struct SIPStrangerRefusalLog {
    private var throttle = LogThrottle(every: .seconds(10))
    private(set) var total = 0

    mutating func note(_ verdict: SIPStrangerScreen.Verdict, method: String?, from source: String, logger: Logger) {
        total += 1
        guard let count = throttle.admit() else { return }
        let more = count > 1 ? " (\(count - 1) more since the last line)" : ""
        let what: String
        switch verdict {
        case .refuse(let status) where status == SIPStrangerScreen.methodNotAllowed:
            what = "refused a SIP \(method ?? "request") from \(source) with \(status): the intercom takes no chat, presence or publications"
        case .refuse(let status):
            what = "refused a SIP \(method ?? "request") from \(source) with \(status): it is no panel, registrar or proxy and has no call with us"
        case .drop(let reason):
            what = "dropped \(reason) from \(source)"
        case .pass, .newCall:
            return
        }
        logger.notice("\(what)\(more)")
    }
}
