import Foundation
import IntercomBase

/// Writes the bus's events into the journal: a row per call (updated as it is answered and
/// ends), per door opening and per panel alarm, and the call's pictures — the first peephole
/// frame, and the picture at answer (the call's video, else the newest peephole frame).
public actor JournalRecorder {
    public nonisolated let journal: Journal
    private let pictures: any JournalPictureSource
    private let logger: Logger
    /// How long to wait after answering for the call's own video before using the peephole.
    private let answerVideoWait: Duration
    /// Calls in progress: an entry lives from `call_incoming` to `call_ended`.
    private var rows: [CallID: Int64] = [:]
    /// Calls in progress whose first peephole picture is saved; cleared with `rows`.
    private var pictured: Set<CallID> = []
    /// The newest picture of the last `latestLimit` calls, for hooks that run after a call ended.
    private var latest: [CallID: String] = [:]
    private var latestOrder: [CallID] = []
    private let latestLimit = 64
    /// Pictures at answer still being taken; each task removes itself when done, so a daemon
    /// answering calls for months keeps none of the finished ones.
    private var pending: [UInt64: Task<Void, Never>] = [:]
    private var nextPending: UInt64 = 0

    public init(journal: Journal, pictures: any JournalPictureSource, logger: Logger,
                answerVideoWait: Duration = .milliseconds(1500)) {
        self.journal = journal
        self.pictures = pictures
        self.logger = logger
        self.answerVideoWait = answerVideoWait
    }

    /// The path of the newest picture saved for a call (for hooks' INTERCOM_SNAPSHOT).
    public func latestPicture(call: CallID) -> String? { latest[call] }

    /// Waits for pictures still being taken (tests, and the daemon before it exits).
    public func settle() async {
        // A task removes its own entry as it ends; new ones may start while we wait.
        while let task = pending.values.first { await task.value }
    }

    /// How many calls the recorder holds state for (tests: it must not grow with calls handled).
    public var heldState: (rows: Int, pictured: Int, latest: Int, pending: Int) {
        (rows.count, pictured.count, latest.count, pending.count)
    }

    public func record(_ event: IntercomEvent) async {
        do {
            try await write(event)
        } catch {
            // The journal must never take the daemon down; one line per failure.
            logger.warning("journal: \(error)")
        }
    }

    private func write(_ event: IntercomEvent) async throws(JournalError) {
        switch event.kind {
        case .callIncoming(let c):
            rows[c.id] = try journal.callStarted(panel: c.panel, call: c.id, caller: c.from, at: event.time)
        case .callOutgoing(let c, let to):
            // `intercom call` and the like: whom we called stands where an incoming call's caller does.
            rows[c.id] = try journal.callStarted(panel: c.panel, call: c.id, caller: to, outgoing: true, at: event.time)
        case .callTransferred(let c, let to, let target, let ok, _):
            guard ok, let row = rows[c.id] else { return }
            try journal.callTransferred(row, to: target.map { "\($0) <\(to)>" } ?? to)
        case .peepholeFrame(let c, _, _, _):
            guard let row = rows[c.id], !pictured.contains(c.id),
                  let jpeg = pictures.peepholeJPEG(call: c.id, panel: c.panel) else { return }
            pictured.insert(c.id)
            remember(c.id, try journal.savePicture(jpeg, row: row, slot: .first, at: event.time))
        case .callAnswered(let c, let by):
            guard let row = rows[c.id] else { return }
            try journal.callAnswered(row, by: by.rawValue)
            let time = event.time
            nextPending += 1
            let token = nextPending
            // The task runs on this actor, so it cannot end before its entry is stored.
            pending[token] = Task {
                await self.pictureAtAnswer(c, row: row, time: time)
                self.pending[token] = nil
            }
        case .callEnded(let c, let reason, let duration):
            guard let row = rows.removeValue(forKey: c.id) else { return }
            pictured.remove(c.id)
            try journal.callEnded(row, outcome: reason.rawValue, duration: duration, at: event.time)
        case .doorOpened(let panel, let c, let door, let method, let by, let ok, let error):
            try journal.doorOpened(panel: panel, call: c?.id, door: door, method: method, by: by.rawValue, ok: ok, error: error,
                                   at: event.time)
        case .panelEvent(let panel, let kind, let state):
            try journal.panelEvent(panel: panel, kind: kind, state: state, at: event.time)
        default:
            break
        }
    }

    private func pictureAtAnswer(_ c: IntercomEvent.CallRef, row: Int64, time: Date) async {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: answerVideoWait)
        var jpeg = await pictures.videoJPEG(call: c.id)
        while jpeg == nil && clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(100))
            jpeg = await pictures.videoJPEG(call: c.id)
        }
        guard let data = jpeg ?? pictures.peepholeJPEG(call: c.id, panel: c.panel) else {
            logger.info("journal: no picture at answer for call \(c.id)")
            return
        }
        do {
            remember(c.id, try journal.savePicture(data, row: row, slot: .answer, at: time))
        } catch {
            logger.warning("journal: \(error)")
        }
    }

    private func remember(_ call: CallID, _ path: String) {
        if latest.updateValue(path, forKey: call) == nil { latestOrder.append(call) }
        // Hooks only ask about recent calls.
        while latestOrder.count > latestLimit { latest.removeValue(forKey: latestOrder.removeFirst()) }
    }
}
