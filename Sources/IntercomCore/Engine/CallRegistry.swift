import Foundation
import IntercomBase
import IntercomPhone

/// The engine's calls: those that live, those that ended and may still be stopping, and the
/// waits on a call's state. A value the actor owns (`Intercom.calls`): it changes only between
/// the actor's awaits, and every change of a live call wakes the waits (`changes`).
struct CallRegistry {
    /// The calls, each with its state and its tasks.
    private var live: [CallID: CallSession] = [:] { didSet { changes.changed() } }
    /// Ended calls whose tasks may still be stopping (a live picture stops within a read: the
    /// end of a call does not wait for it, `stop` does), and outgoing calls that ended before
    /// `dial` resumed. Each leaves once its tasks have returned and `dial` has seen it.
    private(set) var ended: [CallSession] = []
    /// The waits on a call's state: woken at each change of the calls, or when a wait's time ran out.
    let changes = CallChanges()
    /// Each wait under way, true once its time ran out.
    private var waitsTimedOut: [UUID: Bool] = [:]

    subscript(id: CallID) -> CallSession? {
        get { live[id] }
        set { live[id] = newValue }
    }

    var values: Dictionary<CallID, CallSession>.Values { live.values }
    var count: Int { live.count }
    /// Every call that may still run a task, live or ended (`stop` ends them).
    var everyCall: [CallSession] { Array(live.values) + ended }

    /// A new call.
    mutating func add(_ session: CallSession) { live[session.info.id] = session }

    /// The call ended (`detail`: what the phone said): it leaves the live calls, its tasks are
    /// cancelled, and it is kept among the ended ones until they have returned.
    mutating func end(_ id: CallID, _ reason: CallEndReason, detail: String?, seen: Bool = false) -> CallSession? {
        guard var session = live.removeValue(forKey: id) else { return nil }
        session.end(reason, detail: detail)
        if seen { session.markSeen() }
        ended.removeAll { $0.tasks.running == 0 && $0.announced }
        ended.append(session)
        return session
    }

    /// The call moved (`change`, one of its transitions): the call as it is now, nil when it is gone.
    mutating func move(_ id: CallID, _ change: (inout CallSession) -> Void) -> CallSession? {
        guard var session = live[id] else { return nil }
        change(&session)
        live[id] = session
        return session
    }

    /// A call we placed that ended before the phone gave its id back: marked seen, and returned.
    mutating func endedBeforePlaced(_ id: CallID) -> CallSession? {
        guard let index = ended.firstIndex(where: { $0.info.id == id }) else { return nil }
        ended[index].markSeen()
        return ended[index]
    }

    /// The last ended call of that id (why a call back reached nobody).
    func lastEnded(_ id: CallID) -> CallSession? { ended.last { $0.info.id == id } }

    /// `stop` awaited every ended call's tasks.
    mutating func forgetEnded() { ended = [] }

    /// The answered call (else the ringing one) of a panel, or of any panel when nil.
    func current(panel: String?) -> CallSession? {
        let candidates = live.values.filter { panel == nil || $0.name?.lowercased() == panel?.lowercased() }
        return candidates.first { $0.stage == .active } ?? candidates.sorted { $0.since < $1.since }.first
    }

    /// A named call, or the one of `stage` that has waited longest (`what` names it in the error).
    func pick(_ id: CallID?, stage: CallSession.Stage, what: String) throws(IntercomError) -> CallSession {
        if let id {
            guard let session = live[id] else { throw .phone(.noSuchCall(id)) }
            return session
        }
        let candidates = live.values.filter { $0.stage == stage }.sorted { $0.since < $1.since }
        if let first = candidates.first { return first }
        if stage == .active, let ringing = live.values.sorted(by: { $0.since < $1.since }).first { return ringing }
        throw .noCall(what)
    }

    /// The call whose consultation is under way: the named one, else the one that waits longest.
    func consulting(_ id: CallID?) throws(IntercomError) -> CallSession {
        let hint = "start one with 'intercom ctl transfer --consult TARGET' (T in a call)"
        if let id {
            guard let session = live[id] else { throw .phone(.noSuchCall(id)) }
            guard session.transfer.consult != nil else { throw .notNow("call \(id) has no consultation under way; \(hint)") }
            return session
        }
        guard let session = live.values.filter({ $0.transfer.consult != nil }).min(by: { $0.since < $1.since }) else {
            throw .notNow("no consultation under way; \(hint)")
        }
        return session
    }

    /// A call is answered, or being answered: the microphone's mute belongs to a conversation.
    var inConversation: Bool { live.values.contains { $0.stage == .active || $0.stage == .answering } }

    /// The `calls` of the control socket's state, oldest id first.
    var status: [CallStatus] { live.values.sorted { $0.info.id < $1.info.id }.map(\.status) }

    // MARK: - Waits on a call's state

    /// A wait starts: its token, until `waitEnded`.
    mutating func waitStarted() -> UUID {
        let token = UUID()
        waitsTimedOut[token] = false
        return token
    }

    /// The wait's time ran out: it is woken (a wait that has already returned is left alone).
    mutating func expire(_ token: UUID) {
        guard waitsTimedOut[token] != nil else { return }
        waitsTimedOut[token] = true
        changes.changed()
    }

    func hasTimedOut(_ token: UUID) -> Bool { waitsTimedOut[token] == true }

    mutating func waitEnded(_ token: UUID) { waitsTimedOut[token] = nil }
}
