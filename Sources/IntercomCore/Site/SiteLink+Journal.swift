import Foundation
import IntercomBase

/// What the link keeps for the journal's side: the site key of each call in progress (the call side
/// names it at the ring), and which local row each shared entry came from, so a `handled` from
/// another desk reaches this desk's own queue. Both bounded: a desk running for months keeps the
/// newest `limit` only.
struct SiteJournalMemory: Sendable {
    static let limit = 4096
    private(set) var keys: [CallID: SiteCallKey] = [:]
    private var keyOrder: [CallID] = []
    private(set) var rows: [UUID: Int64] = [:]
    private var rowOrder: [UUID] = []

    mutating func key(_ call: CallID, _ key: SiteCallKey) {
        if keys.updateValue(key, forKey: call) == nil { keyOrder.append(call) }
        if keyOrder.count > Self.limit { keys[keyOrder.removeFirst()] = nil }
    }

    mutating func shared(_ id: UUID, row: Int64) {
        guard row > 0 else { return }
        if rows.updateValue(row, forKey: id) == nil { rowOrder.append(id) }
        if rowOrder.count > Self.limit { rows[rowOrder.removeFirst()] = nil }
    }
}

/// The shared journal from the desk's side (issue 40): what `JournalRecorder` finished here goes to
/// the site under an id every replay repeats, and a handled mark goes both ways.
extension SiteLink {
    /// The call side names a forked call's key (the SIP Call-ID of the panel's INVITE) when its leg
    /// rings here: the call's journal entry then merges with the other desks' under one id.
    public func keyCall(_ call: CallID, _ key: SiteCallKey) {
        journalMemory.key(call, key)
    }

    /// The site key of a call of this desk, if the call side named one.
    public func key(for call: CallID) -> SiteCallKey? { journalMemory.keys[call] }

    /// An entry this desk's journal finished (a call ended, a door opened, a transfer tried), for
    /// the site: kept in the outbox first, so an outage or a restart loses nothing.
    public func share(_ entry: JournalEntry) async {
        let key = entry.kind == .call ? entry.call.flatMap { journalMemory.keys[CallID($0)] } : nil
        journalMemory.shared(siteID(entry, key: key), row: entry.id)
        await journal(entry, call: key)
    }

    /// `handled`/`callback` marked entry `entry` of this desk's journal: out of every desk's queue.
    public func handledHere(_ entry: JournalEntry, by who: String) {
        let key = entry.call.flatMap { journalMemory.keys[CallID($0)] }
        handled(siteID(entry, key: key), by: who)
    }

    /// The local row another desk's `handled` of site entry `id` concerns, if this desk shared it.
    public func localRow(_ id: UUID) -> Int64? { journalMemory.rows[id] }

    /// A forked call's entry: from its key, the same at every desk; any other: from this desk and
    /// its row, the same at every replay (an entry of no journal row: a new id).
    func siteID(_ entry: JournalEntry, key: SiteCallKey?) -> UUID {
        if let key { return Self.entryID(key) }
        return entry.id > 0 ? Self.entryID(desk: settings.desk, row: entry.id) : UUID()
    }

    /// The site id of row `row` of desk `desk`'s journal (not a forked call).
    public static func entryID(desk: String, row: Int64) -> UUID {
        entryID(SiteCallKey("journal\u{0}\(desk)\u{0}\(row)"))
    }
}
