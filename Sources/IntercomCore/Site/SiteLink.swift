import Foundation
import IntercomBase

/// This desk's link to its site (issue 40): it says the desk is alive, sends what the desk writes,
/// keeps it in the outbox while the store is down and replays it in order when it is back, and
/// tells the engine what other desks changed. Exists only with `[site]`: a lone desk has none.
///
/// `run()` is the link's life: its owner (the daemon's site stage) runs it in a task and cancels
/// that task to stop it; the heartbeat and the change feed end with it.
public actor SiteLink {
    /// What the link tells its owner.
    public enum Event: Sendable, Equatable {
        /// The store stopped answering (said once per outage).
        case unreachable(String)
        /// It answers again; `replayed` writes of the outbox reached it.
        case reachable(replayed: Int)
        /// Another desk flipped a switch (or, after an outage, one changed later than ours): apply it.
        case switchChanged(SiteSwitchChange)
        /// A forked call's row changed (a desk rang, claimed or ended it).
        case callChanged(SiteCall)
        /// A journal entry was handled at some desk.
        case handled(id: UUID, by: String, at: Date)
        /// Another connection holds this desk's name at the site (true), or no longer (false).
        case nameTaken(Bool)
    }

    let store: any SiteStore
    let clock: any EngineClock
    let logger: Logger
    public internal(set) var settings: SiteSettings {
        didSet {
            if (settings.onDuty, settings.operatorName) != (oldValue.onDuty, oldValue.operatorName) { presenceChanged() }
        }
    }
    var outbox: SiteOutbox
    /// Nil while the store answers; why it does not, during an outage. A change wakes the sender
    /// (it stops at a loss and goes on after the recovery) and whoever waits in `flushed()`.
    public private(set) var unreachable: String? {
        didSet { outboxChanges.changed() }
    }
    /// The latest switch known per panel and kind, ours or another desk's: later wins.
    var switches: [String: SiteSwitchChange] = [:]
    /// Switches whose latest change is this desk's, made while the store was down (not at the site yet).
    var switchedCutOff: Set<String> = []
    /// This desk's cut-off changes a later one from another desk replaced (`lostSwitches`).
    var lostHere: [String: SiteSwitchChange] = [:]
    /// Claims seen on the feed, so an ended call finds its claim without asking the store.
    var claims: [SiteCallKey: SiteCallClaim] = [:]
    /// This desk's call now, for its heartbeat.
    var currentCall: SiteCallKey? {
        didSet { if currentCall != oldValue { presenceChanged() } }
    }
    /// The journal's side: calls' site keys and the site ids of entries shared (`SiteLink+Journal`).
    var journalMemory = SiteJournalMemory()
    /// The site's switches were read since the link started (at its first heartbeat that worked).
    var caughtUp = false
    /// The outbox is being sent (by the sender, or the heartbeat's recovery after an outage).
    var draining = false
    /// The store's own beat while it answers (`beatQuietly`), and whether it ended for a new presence.
    private var beating: Task<Void, any Error>?
    private var presenceMoved = false
    /// Another connection holds this desk's name at the site (`nameTakenChanged`).
    public private(set) var nameTaken = false
    /// Wakes the sender and the waits in `flushed()`: a write kept, a drain ended, the store lost or
    /// back (the same versioned wait the engine's calls use).
    let outboxChanges = CallChanges()
    /// The sender stopped with `run()`: what is kept from now on waits in the outbox for the next run.
    var senderEnded = false

    public nonisolated let events: AsyncStream<Event>
    let emit: AsyncStream<Event>.Continuation

    public init(store: any SiteStore, settings: SiteSettings, outbox: SiteOutbox, clock: any EngineClock, logger: Logger) {
        (self.store, self.settings, self.outbox, self.clock, self.logger) = (store, settings, outbox, clock, logger)
        // Writes an earlier run kept (it stopped during an outage): they go first, at the first
        // heartbeat, which then says the site is reachable with how many it sent.
        if !outbox.isEmpty { unreachable = "\(outbox.pending.count) writes kept by an earlier run are not sent yet" }
        (events, emit) = AsyncStream<Event>.makeStream()
        // Its switches among them are this desk's latest, made cut off: a later one elsewhere is their loss, said.
        for case .publish(let change) in outbox.pending where change.desk == settings.desk {
            let key = Self.switchKey(change.panel, change.kind)
            guard switches[key].map({ $0.at <= change.at }) ?? true else { continue }
            switches[key] = change
            switchedCutOff.insert(key)
        }
    }

    /// Until cancelled: reads the site's switches, listens to the change feed, beats, and sends
    /// what the desk writes (`SiteLink+Sender`).
    public func run() async {
        defer { emit.finish() }
        // Subscribed before the first heartbeat reads the site's switches: a change made between
        // the two is on the feed, not lost.
        let feed = store.changes()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.listen(feed) }
            group.addTask { await self.beat() }
            group.addTask { await self.sendKept() }
            await group.waitForAll()
        }
    }

    /// Says this desk is alive: at once, then through the store every `quietHeartbeat` while it
    /// answers (`beatQuietly`), itself every `heartbeat` while it catches up or is cut off. A beat
    /// that fails starts an outage, the first that works after one ends it (the outbox replayed
    /// first, then the switches read again).
    private func beat() async {
        while !Task.isCancelled {
            await heartbeatNow()
            // With its name held elsewhere the desk beats itself, to see it come back.
            if unreachable == nil, caughtUp, !nameTaken, await beatQuietly() { continue }
            do { try await clock.sleep(for: settings.heartbeat) } catch { return }
        }
    }

    /// The store's own beat (`SiteStore.keepBeating`: on PostgreSQL, its connection's thread), so
    /// an idle desk's link sleeps. It ends at a beat that failed (an outage), a write that found
    /// the store down (`lost`), or a change of what this desk says of itself (`presenceChanged`):
    /// true then, and the link beats the new presence at once.
    private func beatQuietly() async -> Bool {
        let (store, presence, period, clock) = (self.store, self.presence, settings.quietHeartbeat, self.clock)
        let quiet = Task { try await store.keepBeating(presence, every: period, clock: clock) }
        beating = quiet
        defer { beating = nil }
        do {
            try await withTaskCancellationHandler { try await quiet.value } onCancel: { quiet.cancel() }
        } catch {
            lost(error)
        }
        defer { presenceMoved = false }
        return presenceMoved
    }

    /// Another connection holds this desk's name at the site, or no longer: said once each way.
    /// Two desks under one name would share its calls, duty and journal: the other desks see only one.
    private func nameTakenChanged(_ held: Bool) {
        nameTaken = !held
        emit.yield(.nameTaken(nameTaken))
        if nameTaken {
            logger.warning("site: another connection holds the desk name '\(settings.desk)' at the site; is a second desk "
                + "configured with the same [site] desk? Give each desk its own name (if this desk restarted, its previous "
                + "connection is closed by the server within about 10 s)")
        } else {
            logger.notice("site: this desk holds its name '\(settings.desk)' at the site again")
        }
    }

    /// The desk's duty, operator or call changed: the quiet beat ends, and the link beats the new one.
    func presenceChanged() {
        presenceMoved = true
        beating?.cancel()
    }

    /// What this desk says of itself now.
    private var presence: DeskPresence {
        DeskPresence(desk: settings.desk, onDuty: settings.onDuty, operatorName: settings.operatorName,
                     currentCall: currentCall, at: clock.date)
    }

    /// One heartbeat now (also after `ctl duty`, so the other desks see it at once).
    public func heartbeatNow() async {
        do {
            let held = try await store.heartbeat(presence)
            if held == nameTaken { nameTakenChanged(held) }
            if unreachable != nil || !caughtUp { await recover() }
        } catch {
            lost(error)
        }
    }

    /// The change feed, for as long as the link runs. Our own changes come back on it: they are
    /// not applied again (no echo between desks).
    private func listen(_ feed: AsyncStream<SiteChange>) async {
        for await change in feed {
            guard !Task.isCancelled else { return }
            switch change {
            case .switchChanged(let change): adopt(change)
            case .call(let call):
                if let claim = call.claim { claims[call.key] = claim }
                emit.yield(.callChanged(call))
            case .desk: break
            case .journalHandled(let id, let who, let time): emit.yield(.handled(id: id, by: who, at: time))
            }
        }
    }

    /// The store failed: says so once per outage.
    func lost(_ error: any Error) {
        guard unreachable == nil else { return }
        beating?.cancel()
        let why = "\(error)"
        unreachable = why
        // This desk's switches still in the outbox are cut off from now on: a later change made
        // elsewhere meanwhile is their loss (`adopt`).
        for case .publish(let change) in outbox.pending where change.desk == settings.desk {
            let key = Self.switchKey(change.panel, change.kind)
            if switches[key] == change { switchedCutOff.insert(key) }
        }
        logger.warning("site: the store is unreachable (\(why)); this desk goes on alone and keeps its writes")
        emit.yield(.unreachable(why))
    }

    /// The store answers (again, or for the first time since the link started): the outbox goes
    /// first, in order, each write dropped once sent; then the switches are read, so one changed
    /// elsewhere while this desk was away or cut off is applied.
    private func recover() async {
        guard let replayed = await drain() else { return }
        do {
            for change in try await store.switches() { adopt(change) }
            caughtUp = true
        } catch {
            return lost(error)
        }
        if unreachable != nil {
            unreachable = nil
            logger.info("site: the store answers again; \(replayed) kept writes sent")
            emit.yield(.reachable(replayed: replayed))
        }
    }
}
