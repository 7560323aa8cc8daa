import Foundation
import IntercomBase
import IntercomCore
import Synchronization

/// A site store in memory, for the site parts' tests: what PostgreSQL keeps, with the same rules
/// (later wins for switches, the first claim wins a call, journal entries by id), a change feed
/// that fans out to every stream, and a `reachable` switch: off, every call throws
/// `SiteStoreError.unreachable` and the feed says nothing, as a store that is down. `hold()`
/// freezes it instead: every call waits, neither answering nor failing, until `release()`.
package final class FakeSiteStore: SiteStore {
    private struct State {
        var reachable = true
        var desks: [String: DeskPresence] = [:]
        /// Desks whose session ended since their last heartbeat (`endSession`).
        var gone: Set<String> = []
        /// Desk names another connection holds (`holdName`).
        var heldElsewhere: Set<String> = []
        var switches: [String: SiteSwitchChange] = [:]
        var calls: [SiteCallKey: SiteCall] = [:]
        var journal: [SiteJournalEntry] = []
        var feeds: [UUID: AsyncStream<SiteChange>.Continuation] = [:]
        var holding = false
        var held: [(id: UUID, call: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    /// Every write that reached the store, in order (`append <id>`, `publish <panel> <kind> <value>`…).
    package let writes = Ledger<String>()

    private let heldChanged = ChangeSignal()

    package init() {}

    /// Frozen, as a SIGSTOPped server: every call from now on waits until `release()` (or until its
    /// task is cancelled, so a test whose desk waits on the store fails instead of hanging).
    package func hold() { state.withLock { $0.holding = true } }

    /// Lets the held calls go on, in the order they came: each then answers, or throws when the
    /// store was switched off meanwhile (`reachable = false`: the store went down under them).
    package func release() {
        let held = state.withLock { s in
            s.holding = false
            defer { s.held = [] }
            return s.held
        }
        for waiting in held { waiting.call.resume() }
    }

    /// Calls waiting in a held store.
    package var heldCalls: Int { state.withLock { $0.held.count } }

    /// Returns once at least `count` calls wait in the held store (a real-time `timeout` guards a
    /// test whose desk never calls: it fails saying so).
    package func waitForHeldCalls(_ count: Int, timeout: Duration = .seconds(10)) async throws {
        guard await heldChanged.wait(timeout: timeout, until: { heldCalls >= count }) else {
            throw FakeTimeout(what: "\(count) calls held in the store", seen: ["held: \(heldCalls)"] + writes.all)
        }
    }

    /// Where every call begins: it waits here while the store is held.
    private func gate() async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (call: CheckedContinuation<Void, Never>) in
                // Under the lock the cancel handler takes: a cancel either finds the wait or is seen here.
                let waits = state.withLock { s in
                    guard s.holding, !Task.isCancelled else { return false }
                    s.held.append((id, call))
                    return true
                }
                if waits { heldChanged.changed() } else { call.resume() }
            }
        } onCancel: {
            state.withLock { s in s.held.firstIndex { $0.id == id }.map { s.held.remove(at: $0).call } }?.resume()
        }
    }

    /// Off: every call throws, as a store that is down; on: it answers again (nothing kept is lost).
    package var reachable: Bool {
        get { state.withLock { $0.reachable } }
        set { state.withLock { $0.reachable = newValue } }
    }

    package var journal: [SiteJournalEntry] { state.withLock { $0.journal } }
    package var feedCount: Int { state.withLock { $0.feeds.count } }

    package func ping() async throws {
        await gate()
        try check()
    }

    @discardableResult
    package func heartbeat(_ presence: DeskPresence) async throws -> Bool {
        await gate()
        try write("heartbeat \(presence.desk)") { s in
            s.desks[presence.desk] = presence
            s.gone.remove(presence.desk)
            return [.desk(presence)]
        }
        return !state.withLock { $0.heldElsewhere.contains(presence.desk) }
    }

    /// Another connection holds `desk`'s name (a second desk under it) until `release`d.
    package func holdName(_ desk: String, _ held: Bool = true) {
        state.withLock { s in
            if held { s.heldElsewhere.insert(desk) } else { s.heldElsewhere.remove(desk) }
        }
    }

    package func desks() async throws -> [DeskPresence] {
        await gate()
        return try read { s in
            s.desks.values.sorted { $0.desk < $1.desk }.map { desk in
                var desk = desk
                desk.connected = !s.gone.contains(desk.desk)
                return desk
            }
        }
    }

    /// The desk's session ended (its process stopped): the store no longer sees it, as PostgreSQL
    /// frees its lock; its next heartbeat is a new session.
    package func endSession(of desk: String) {
        state.withLock { _ = $0.gone.insert(desk) }
    }

    package func publish(_ change: SiteSwitchChange) async throws {
        await gate()
        try write("publish \(change.panel) \(change.kind.rawValue) \(change.value) by \(change.desk)") { s in
            let key = "\(change.panel.lowercased())/\(change.kind.rawValue)"
            if let kept = s.switches[key], kept.at > change.at { return [] }
            s.switches[key] = change
            return [.switchChanged(change)]
        }
    }

    package func switches() async throws -> [SiteSwitchChange] {
        await gate()
        return try read { $0.switches.values.sorted { ($0.panel, $0.kind.rawValue) < ($1.panel, $1.kind.rawValue) } }
    }

    package func noteRinging(_ key: SiteCallKey, panel: String?, caller: String?, desk: String, at time: Date) async throws {
        await gate()
        try write("ringing \(key) at \(desk)") { s in
            var call = s.calls[key] ?? SiteCall(key: key, panel: panel, caller: caller, startedAt: time, legs: [], claim: nil)
            if !call.legs.contains(where: { $0.desk == desk }) { call.legs.append(SiteCallLeg(desk: desk, rangAt: time)) }
            s.calls[key] = call
            return [.call(call)]
        }
    }

    package func claim(_ key: SiteCallKey, _ claim: SiteCallClaim) async throws -> SiteCall {
        await gate()
        var result: SiteCall?
        try write("claim \(key) \(claim.kind.rawValue) by \(claim.desk)") { s in
            var call = s.calls[key] ?? SiteCall(key: key, panel: nil, caller: nil, startedAt: claim.at, legs: [], claim: nil)
            let won = call.claim == nil
            if won { call.claim = claim }
            s.calls[key] = call
            result = call
            return won ? [.call(call)] : []
        }
        guard let result else { throw SiteStoreError.unreachable("the fake kept no row") }
        return result
    }

    package func noteEnded(_ key: SiteCallKey, desk: String, reason: String, at time: Date) async throws {
        await gate()
        try write("ended \(key) at \(desk) \(reason)") { s in
            guard var call = s.calls[key], let leg = call.legs.firstIndex(where: { $0.desk == desk }) else { return [] }
            if call.legs[leg].endedAt == nil { (call.legs[leg].endedAt, call.legs[leg].reason) = (time, reason) }
            s.calls[key] = call
            return [.call(call)]
        }
    }

    package func call(_ key: SiteCallKey) async throws -> SiteCall? {
        await gate()
        return try read { $0.calls[key] }
    }

    package func activeCalls() async throws -> [SiteCall] {
        await gate()
        return try read { $0.calls.values.filter(\.active).sorted { $0.startedAt < $1.startedAt } }
    }

    package func append(_ entries: [SiteJournalEntry]) async throws {
        await gate()
        try write("append \(entries.map(\.id.uuidString).joined(separator: " "))") { s in
            for entry in entries where !s.journal.contains(where: { $0.id == entry.id }) { s.journal.append(entry) }
            return []
        }
    }

    package func entries(_ query: SiteJournalQuery) async throws -> [SiteJournalEntry] {
        await gate()
        return try read { s in
            let matching = s.journal.filter { e in
                (query.since.map { e.entry.time >= $0 } ?? true)
                    && (query.desk.map { e.desk.caseInsensitiveCompare($0) == .orderedSame } ?? true)
                    && (query.panel.map { e.entry.panel?.caseInsensitiveCompare($0) == .orderedSame } ?? true)
                    && (!query.missedOnly || e.missed)
                    && (!query.unhandledOnly || (e.missed && e.entry.handledAt == nil))
            }.sorted { $0.entry.time < $1.entry.time }
            return query.limit.map { Array(matching.suffix($0)) } ?? matching
        }
    }

    package func markHandled(_ id: UUID, by who: String, at time: Date) async throws -> SiteJournalEntry {
        await gate()
        var result: SiteJournalEntry?
        try write("handled \(id) by \(who)") { s in
            guard let index = s.journal.firstIndex(where: { $0.id == id }) else { return [] }
            (s.journal[index].entry.handledAt, s.journal[index].entry.handledBy) = (time, who)
            result = s.journal[index]
            return [.journalHandled(id: id, by: who, at: time)]
        }
        guard let result else { throw SiteStoreError.noEntry(id) }
        return result
    }

    package func changes() -> AsyncStream<SiteChange> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<SiteChange>.makeStream()
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.feeds.removeValue(forKey: id) }
        }
        state.withLock { $0.feeds[id] = continuation }
        return stream
    }

    /// Ends every stream, as a store closed.
    package func close() {
        let feeds = state.withLock { s in
            defer { s.feeds = [:] }
            return Array(s.feeds.values)
        }
        for feed in feeds { feed.finish() }
    }

    private func check() throws {
        if !reachable { throw SiteStoreError.unreachable("the fake store is switched off") }
    }

    private func read<T>(_ body: (State) -> T) throws -> T {
        try state.withLock { s in
            guard s.reachable else { throw SiteStoreError.unreachable("the fake store is switched off") }
            return body(s)
        }
    }

    /// Applies a write under the lock, then tells every feed what it changed and the ledger it happened.
    private func write(_ what: String, _ body: (inout State) -> [SiteChange]) throws {
        let (changes, feeds) = try state.withLock { s in
            guard s.reachable else { throw SiteStoreError.unreachable("the fake store is switched off") }
            return (body(&s), Array(s.feeds.values))
        }
        writes.append(what)
        for change in changes { for feed in feeds { feed.yield(change) } }
    }
}
