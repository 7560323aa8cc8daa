import IntercomBase

/// What the journal kept of the last `limit` calls — the newest picture and the clip — for hooks
/// that run after a call ended (INTERCOM_SNAPSHOT, INTERCOM_CLIP). One bounded table for both, the
/// oldest call leaving first, so a daemon answering calls for months holds no more than this.
struct RecentCalls {
    struct Kept {
        var picture: String?
        var clip: String?
    }

    let limit: Int
    private var kept: [CallID: Kept] = [:]
    private var order: [CallID] = []

    init(limit: Int = 64) { self.limit = limit }

    func picture(_ call: CallID) -> String? { kept[call]?.picture }
    func clip(_ call: CallID) -> String? { kept[call]?.clip }
    /// How many calls have a picture kept (tests: bounded by `limit`).
    var pictures: Int { kept.values.filter { $0.picture != nil }.count }

    mutating func keep(picture: String, of call: CallID) { update(call) { $0.picture = picture } }
    mutating func keep(clip: String, of call: CallID) { update(call) { $0.clip = clip } }

    private mutating func update(_ call: CallID, _ change: (inout Kept) -> Void) {
        if kept[call] == nil { order.append(call) }
        change(&kept[call, default: Kept()])
        while order.count > limit { kept.removeValue(forKey: order.removeFirst()) }
    }
}
