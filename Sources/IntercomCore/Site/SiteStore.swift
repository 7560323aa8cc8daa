import Foundation
import IntercomBase

/// What the engine asks of a site: the store several desks share (issue 40). PostgreSQL behind it
/// in production (`IntercomSite`), an in-memory fake in the engine's tests. The store only keeps
/// and tells; the engine's site parts decide (who is offline, who won a call, what is replayed).
///
/// Every method throws when the store cannot be reached or refuses; the engine then keeps what it
/// meant to write in its outbox and says the site is unreachable. Writes are idempotent where a
/// replay could repeat them (journal entries by id, a call's claim by its first winner).
public protocol SiteStore: Sendable {
    /// Cheap round trip: throws when the store cannot be reached (the engine's probe during an outage).
    func ping() async throws

    // Desks
    /// Says this desk is alive now, as it is (upsert by `presence.desk`; `at` becomes its last seen).
    /// False when another connection holds the desk's name (a second desk configured under it, or
    /// this desk's previous connection the store has not closed yet).
    @discardableResult
    func heartbeat(_ presence: DeskPresence) async throws -> Bool
    /// Says this desk is still alive every `period` (its last seen moves; nothing else changes and
    /// nobody is told), until a beat fails (thrown) or the task is cancelled (returns). A store
    /// that can beat without waking the engine does (PostgreSQL: on its connection's thread); the
    /// default here beats through `heartbeat` on `clock`.
    func keepBeating(_ presence: DeskPresence, every period: Duration, clock: any EngineClock) async throws
    /// Every desk that ever beat, with its last heartbeat (`at` = last seen). Offline is the engine's call.
    func desks() async throws -> [DeskPresence]

    // Switches
    /// Keeps a switch flipped at a desk. Later wins: a change older than the one kept for the same
    /// panel and kind is ignored (an outage replay of a switch another desk has changed since).
    func publish(_ change: SiteSwitchChange) async throws
    /// The latest change per panel and kind.
    func switches() async throws -> [SiteSwitchChange]

    // Calls: one row per forked call, keyed by the panel's SIP Call-ID (the same at every desk).
    /// This desk's leg rings (creates the row on the first desk; adds the leg on the others).
    func noteRinging(_ key: SiteCallKey, panel: String?, caller: String?, desk: String, at time: Date) async throws
    /// Claims the call for `desk`: the first claim (answer or escalation) wins, later ones change
    /// nothing. The row as it is after the claim: `claim?.desk == desk` says whether this desk won.
    func claim(_ key: SiteCallKey, _ claim: SiteCallClaim) async throws -> SiteCall
    /// This desk's leg ended (`reason` as in `call_ended`: answered_elsewhere, hangup, refused…).
    func noteEnded(_ key: SiteCallKey, desk: String, reason: String, at time: Date) async throws
    func call(_ key: SiteCallKey) async throws -> SiteCall?
    /// Calls with a leg still ringing or talking, oldest first.
    func activeCalls() async throws -> [SiteCall]

    // Journal
    /// Adds entries; an id already kept is skipped (a replay after an outage adds nothing twice).
    func append(_ entries: [SiteJournalEntry]) async throws
    /// The entries `query` asks for, oldest first (the newest `limit` when it says one).
    func entries(_ query: SiteJournalQuery) async throws -> [SiteJournalEntry]
    /// Takes entry `id` out of every desk's queue of missed calls; the entry as it is now.
    /// Throws `SiteStoreError.noEntry` when there is none.
    @discardableResult
    func markHandled(_ id: UUID, by who: String, at time: Date) async throws -> SiteJournalEntry

    // Change feed
    /// What changed at any desk (this one included), as it lands: NOTIFY on PostgreSQL. A new
    /// stream per caller; it ends when the caller stops iterating or the store is closed. While the
    /// store is unreachable nothing comes; the engine reads the switches again when it is back.
    func changes() -> AsyncStream<SiteChange>
}

/// A forked call as every desk knows it: the SIP Call-ID of the panel's INVITE through the proxy.
public struct SiteCallKey: Hashable, Sendable, CustomStringConvertible {
    public var callID: String
    public init(_ callID: String) { self.callID = callID }
    public var description: String { callID }
}

extension SiteStore {
    public func keepBeating(_ presence: DeskPresence, every period: Duration, clock: any EngineClock) async throws {
        var presence = presence
        while true {
            do { try await clock.sleep(for: period) } catch { return }
            presence.at = clock.date
            try await heartbeat(presence)
        }
    }
}

/// A desk as it says itself in a heartbeat, and as `desks()` gives it back.
public struct DeskPresence: Sendable, Equatable {
    public var desk: String
    public var onDuty: Bool
    /// Who is on duty at the desk (`[site] operator`, `ctl duty on --operator NAME`).
    public var operatorName: String?
    /// The call the desk is in, if any.
    public var currentCall: SiteCallKey?
    /// The heartbeat's time; read back: the desk's last seen.
    public var at: Date
    /// Read back: whether the store sees a session of the desk's now (nil: it cannot tell, and the
    /// last seen alone decides). A desk whose session is gone is offline at once.
    public var connected: Bool?

    public init(desk: String, onDuty: Bool, operatorName: String?, currentCall: SiteCallKey?, at: Date, connected: Bool? = nil) {
        (self.desk, self.onDuty, self.operatorName, self.currentCall, self.at) = (desk, onDuty, operatorName, currentCall, at)
        self.connected = connected
    }
}

/// A switch shared by the site's desks.
public enum SiteSwitchKind: String, Sendable, CaseIterable {
    /// Guest mode; value `off` or the RFC 3339 time it ends.
    case guest
    /// Calls on/off (do-not-disturb); value `on` or `off`.
    case calls
    /// A per-panel policy, value its text.
    case policy
}

/// A switch flipped at a desk: what, to what, by whom, when. `value` is opaque to the store.
public struct SiteSwitchChange: Sendable, Equatable {
    public var panel: String
    public var kind: SiteSwitchKind
    public var value: String
    public var desk: String
    public var operatorName: String?
    public var at: Date

    public init(panel: String, kind: SiteSwitchKind, value: String, desk: String, operatorName: String?, at: Date) {
        (self.panel, self.kind, self.value, self.desk, self.operatorName, self.at) = (panel, kind, value, desk, operatorName, at)
    }
}

/// Who took a call: the desk that answered it, or the desk that escalated it (blind transfer to `target`).
public struct SiteCallClaim: Sendable, Equatable {
    public enum Kind: String, Sendable { case answered, escalated }
    public var kind: Kind
    public var desk: String
    public var operatorName: String?
    /// Escalations: where the call was transferred.
    public var target: String?
    public var at: Date

    public init(kind: Kind, desk: String, operatorName: String?, target: String? = nil, at: Date) {
        (self.kind, self.desk, self.operatorName, self.target, self.at) = (kind, desk, operatorName, target, at)
    }
}

/// One desk's leg of a forked call.
public struct SiteCallLeg: Sendable, Equatable {
    public var desk: String
    public var rangAt: Date
    public var endedAt: Date?
    public var reason: String?

    public init(desk: String, rangAt: Date, endedAt: Date? = nil, reason: String? = nil) {
        (self.desk, self.rangAt, self.endedAt, self.reason) = (desk, rangAt, endedAt, reason)
    }
}

/// A forked call's row: where it rang, who took it.
public struct SiteCall: Sendable, Equatable {
    public var key: SiteCallKey
    public var panel: String?
    public var caller: String?
    /// The first leg's ring.
    public var startedAt: Date
    /// By desk, in the order they rang.
    public var legs: [SiteCallLeg]
    public var claim: SiteCallClaim?

    public init(key: SiteCallKey, panel: String?, caller: String?, startedAt: Date, legs: [SiteCallLeg], claim: SiteCallClaim?) {
        (self.key, self.panel, self.caller, self.startedAt, self.legs, self.claim) = (key, panel, caller, startedAt, legs, claim)
    }

    /// A leg still ringing or talking.
    public var active: Bool { legs.contains { $0.endedAt == nil } }
}

/// An entry of the site's journal: a desk's journal entry, with the site's facts beside it.
public struct SiteJournalEntry: Sendable, Equatable {
    /// Made by the desk that writes it (a forked call's: from its Call-ID, the same at every desk),
    /// so a replay, or a second desk writing the same call, adds nothing.
    public var id: UUID
    /// The desk that wrote it; it holds the entry's pictures and clips (they stay there).
    public var desk: String
    /// Who acted, where a person did (answered, opened).
    public var operatorName: String?
    /// Forked calls: the desks it rang at, in order, and the claim (answered at B by anna, escalated).
    public var callKey: SiteCallKey?
    public var rangAt: [String]
    public var claim: SiteCallClaim?
    /// The entry as the desk's own journal has it (`id` 0: rows are the desk's). The store keeps its
    /// `json` and filters on `kind`, `time`, `panel`, `missed`; `handledAt`/`handledBy` are the site's.
    public var entry: JournalEntry

    public init(id: UUID, desk: String, operatorName: String?, callKey: SiteCallKey? = nil, rangAt: [String] = [],
                claim: SiteCallClaim? = nil, entry: JournalEntry) {
        (self.id, self.desk, self.operatorName, self.callKey, self.rangAt, self.claim, self.entry) =
            (id, desk, operatorName, callKey, rangAt, claim, entry)
    }

    /// Rang and no desk took it.
    public var missed: Bool { entry.missed && claim == nil }
}

/// A change another desk (or this one) made, as the feed brings it.
public enum SiteChange: Sendable, Equatable {
    case switchChanged(SiteSwitchChange)
    case call(SiteCall)
    case desk(DeskPresence)
    case journalHandled(id: UUID, by: String, at: Date)
}

/// What a site store throws for the engine to tell apart; any other error is the store's own.
public enum SiteStoreError: Error, Equatable, CustomStringConvertible {
    /// The store cannot be reached now (connection refused, lost, timed out): the engine keeps
    /// writing to its outbox and probes with `ping`.
    case unreachable(String)
    /// `markHandled` on an id the site has no entry for.
    case noEntry(UUID)

    public var description: String {
        switch self {
        case .unreachable(let why): "the site's store cannot be reached: \(why)"
        case .noEntry(let id): "the site's journal has no entry \(id)"
        }
    }
}
