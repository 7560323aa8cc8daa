import Foundation
import IntercomBase
import IntercomVideo

/// Writes the bus's events into the journal: a row per call (updated as it is answered and
/// ends), per door opening and per panel alarm (a door sensor's on/off that echoes an opening
/// goes onto the opening's row instead: `DoorSensorFold`), and the call's pictures — the first peephole
/// frame, and the picture at answer (the call's video, else the newest peephole frame). With
/// `[panel] record` on, the call's clips too: the panel's stream from the ring on (`rings`,
/// remuxed by `StreamRecorder` until the answer or the end) and the answered call's recording
/// (`calls`, which the phone makes).
public actor JournalRecorder {
    public nonisolated let journal: Journal
    private let pictures: any JournalPictureSource
    private let logger: Logger
    /// How long to wait after answering for the call's own video before using the peephole.
    private let answerVideoWait: Duration
    /// The engine's clock: the wait for the call's video and the hooks' waits for a picture run
    /// on it, so tests drive them with a manual clock.
    private let clock: any EngineClock
    /// What the recorder holds for one call in progress: its row, whether its first picture is
    /// saved, its ring's recording, its attended transfer, the hooks waiting for its picture.
    /// One value per call, from `call_incoming` (or `call_outgoing`) to `call_ended`, which
    /// takes it out whole: nothing of a call is left behind in a table of its own.
    private struct CallRecord {
        let row: Int64
        var pictured = false
        /// The ring being recorded (`record = rings`), stopped at the answer or the end.
        var ring: StreamRecorder?
        /// An attended transfer under way (`transfer_consult` calling): its transfer is `attended`.
        var consulting = false
        /// Hooks waiting for the call's first picture (`picture(call:within:)`), by token.
        var pictureWaiters: [(token: UInt64, continuation: CheckedContinuation<String?, Never>)] = []
    }
    private var inProgress: [CallID: CallRecord] = [:]
    /// The newest picture and the clip of the last 64 calls, for hooks that run after a call ended.
    private var recent = RecentCalls()
    /// The recorder's tasks: pictures at answer still being taken (each leaves when done, so a
    /// daemon answering calls for months holds none of the finished ones; one may outlive its
    /// call by the wait for the call's video) and the timers of hooks' waits for a picture.
    private let tasks = TaskOwner("journal")
    private let clips: (any JournalClipSource)?
    /// Panels whose missing or failing stream was already logged: one line, not one per ring.
    private var streamTroubleSaid: Set<String> = []
    /// The longest ring clip (a panel rings for about a minute).
    private let ringClipLimit: Duration
    /// Door-sensor changes that echo an opening go onto the opening's row (issue 25).
    private var sensorFold = DoorSensorFold()
    private var nextWaiter: UInt64 = 0
    /// Told each entry once it is whole (a call ended, a door opened, a transfer tried): the site's
    /// journal (issue 40). It must not wait: the events wait behind it.
    private let finished: (@Sendable (JournalEntry) -> Void)?

    public init(journal: Journal, pictures: any JournalPictureSource, logger: Logger,
                answerVideoWait: Duration = .milliseconds(1500), clips: (any JournalClipSource)? = nil,
                ringClipLimit: Duration = .seconds(180), clock: any EngineClock = SystemClock(),
                finished: (@Sendable (JournalEntry) -> Void)? = nil) {
        self.journal = journal
        self.finished = finished
        self.clock = clock
        self.pictures = pictures
        self.clips = clips
        self.ringClipLimit = ringClipLimit
        self.logger = logger
        self.answerVideoWait = answerVideoWait
    }

    /// The path of the newest picture saved for a call (for hooks' INTERCOM_SNAPSHOT).
    public func latestPicture(call: CallID) -> String? { recent.picture(call) }

    /// The call's newest picture, waiting up to `wait` for its first one (an incoming call's hook:
    /// the peephole's first picture comes a few ms after the ring). Nil when none came in time or
    /// the call ended first without one.
    public func picture(call: CallID, within wait: Duration) async -> String? {
        if let path = recent.picture(call) { return path }
        guard wait > .zero, inProgress[call] != nil else { return nil }
        nextWaiter += 1
        let token = nextWaiter
        let slot = "picture wait \(token)"
        let clock = clock
        tasks.start(slot) {
            do { try await clock.sleep(for: wait) } catch { return }
            await self.resumeWaiter(call, token: token, with: nil)
        }
        defer { tasks.cancel(slot) }
        // The continuation is stored before this actor runs anything else (the call is still in
        // progress: nothing was awaited since it was looked up).
        return await withCheckedContinuation { continuation in
            guard inProgress[call] != nil else { return continuation.resume(returning: nil) }
            inProgress[call]?.pictureWaiters.append((token, continuation))
        }
    }

    /// The waits for the call's first picture still pending: a test orders a picture after a wait by it.
    package func pictureWaits(call: CallID) -> Int { inProgress[call]?.pictureWaiters.count ?? 0 }

    private func resumeWaiter(_ call: CallID, token: UInt64, with path: String?) {
        guard let index = inProgress[call]?.pictureWaiters.firstIndex(where: { $0.token == token }) else { return }
        inProgress[call]?.pictureWaiters.remove(at: index).continuation.resume(returning: path)
    }

    private static func resume(_ waiters: [(token: UInt64, continuation: CheckedContinuation<String?, Never>)], with path: String?) {
        for waiter in waiters { waiter.continuation.resume(returning: path) }
    }

    /// The clip of an ended call (for hooks' INTERCOM_CLIP): its recording, else its ring's clip.
    public func latestClip(call: CallID) -> String? { recent.clip(call) }

    /// Waits for pictures still being taken (tests, and the daemon before it exits), and ends
    /// ring recordings still running (the daemon stopping mid-ring) so their files are whole.
    public func settle() async {
        // New ones may start while we wait; the recorder goes on afterwards.
        await tasks.settle()
        for call in Array(inProgress.keys) { await finishRing(call) }
    }

    /// How many calls the recorder holds state for (tests: it must not grow with calls handled).
    public var heldState: (rows: Int, pictured: Int, latest: Int, pending: Int) {
        (inProgress.count, inProgress.values.filter(\.pictured).count, recent.pictures, tasks.running)
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
            let row = try journal.callStarted(panel: c.panel, call: c.id, caller: c.from, at: event.time)
            inProgress[c.id] = CallRecord(row: row)
            await startRing(c, row: row)
        case .callOutgoing(let c, let to):
            // `intercom call` and the like: whom we called stands where an incoming call's caller does.
            inProgress[c.id] = CallRecord(row: try journal.callStarted(panel: c.panel, call: c.id, caller: to, outgoing: true, at: event.time))
        case .callTransferred(let c, let to, let target, let ok, let error):
            let whom = target.map { "\($0) <\(to)>" } ?? to
            let mode = inProgress[c.id]?.consulting == true ? "attended" : "blind"
            if ok { inProgress[c.id]?.consulting = false }
            // Each outcome is an entry of its own (a refused one says why); the call's row keeps where it went.
            finish(try journal.transferTried(panel: c.panel, call: c.id, target: whom, mode: mode, ok: ok, error: error, at: event.time))
            if ok, let row = inProgress[c.id]?.row { try journal.callTransferred(row, to: whom) }
        case .transferConsult(let c, let state, let to, let target, _, let error):
            switch state {
            case .calling: inProgress[c.id]?.consulting = true
            case .cancelled, .failed:
                inProgress[c.id]?.consulting = false
                finish(try journal.transferTried(panel: c.panel, call: c.id, target: target.map { "\($0) <\(to)>" } ?? to,
                                                 mode: "attended", ok: false, error: error ?? "cancelled at the desk", at: event.time))
            case .answered, .transferring: break
            }
        case .peepholeFrame(let c, _, _, _):
            guard let call = inProgress[c.id], !call.pictured,
                  let jpeg = pictures.peepholeJPEG(call: c.id, panel: c.panel) else { return }
            let row = call.row
            inProgress[c.id]?.pictured = true
            remember(c.id, try journal.savePicture(jpeg, row: row, slot: .first, at: event.time))
        case .callAnswered(let c, let by):
            guard let row = inProgress[c.id]?.row else { return }
            try journal.callAnswered(row, by: by.rawValue, who: event.who)
            // The call's own recording takes over from the ring's.
            await finishRing(c.id)
            if let clip = clips?.takeCallClip(call: c.id) { try journal.setClip(clip, row: row, slot: .call) }
            let time = event.time
            tasks.start { await self.pictureAtAnswer(c, row: row, time: time) }
        case .callEnded(let c, let reason, let duration):
            guard let call = inProgress.removeValue(forKey: c.id) else { return }
            let row = call.row
            Self.resume(call.pictureWaiters, with: recent.picture(c.id))
            if let ring = call.ring { await finishRing(ring, row: row) }
            try journal.callEnded(row, outcome: reason.rawValue, duration: duration, at: event.time)
            try keepCallClip(c.id, row: row)
            finish(row)
        case .doorOpened(let panel, let c, let door, let method, let by, let ok, let error):
            let row = try journal.doorOpened(panel: panel, call: c?.id, door: door, method: method, by: by.rawValue, who: event.who, ok: ok,
                                             error: error, at: event.time)
            finish(row)
            guard ok else { return }
            let earlier = sensorFold.opened(panel: panel, row: row, at: event.time)
            try journal.foldSensor(rows: earlier.map(\.row), into: row)
        case .panelOpened(let o):
            let row = try journal.panelOpened(o, at: event.time)
            let earlier = sensorFold.opened(panel: o.panel, row: row, at: event.time)
            try journal.foldSensor(rows: earlier.map(\.row), into: row)
        case .panelCalling(let panel, let flat, _):
            try journal.panelEvent(panel: panel, kind: EventName.panelCalling.rawValue, state: flat, at: event.time)
        case .callAnsweredElsewhere(let panel, let flat):
            try journal.panelEvent(panel: panel, kind: EventName.callAnsweredElsewhere.rawValue, state: flat, at: event.time)
        case .panelEvent(let panel, let kind, let state, _) where DoorSensorFold.isDoorSensor(kind):
            if let opening = sensorFold.sensor(panel: panel, state: state, at: event.time) {
                try journal.foldSensor(state, into: opening)
            } else {
                let row = try journal.panelEvent(panel: panel, kind: kind, state: state, at: event.time)
                sensorFold.kept(panel: panel, .init(row: row, state: state, time: event.time))
            }
        case .panelEvent(let panel, let kind, let state, _):
            try journal.panelEvent(panel: panel, kind: kind, state: state, at: event.time)
        case .shareExpired(let e):
            // Beside the operator's own entries: it is that operator's flat, and `intercom log --operator` finds it.
            try journal.recordOperatorEvent(.operatorEvent(
                operator: e.operatorName, event: EventName.shareExpired.rawValue, eventText: "access of +\(e.phone) ended (kept by this intercom)",
                uuid: "share-expired:\(e.flatId):\(e.phone):\(Int(e.until.timeIntervalSince1970))", time: event.time,
                door: "flat \(e.flatId)", who: "intercom", flat: e.flatId, address: e.address, pictureURL: nil, detail: .string(e.phone)))
        default:
            break
        }
    }

    /// Hands the finished entry `row` on (nothing without a site).
    private func finish(_ row: Int64) {
        guard let finished else { return }
        do {
            if let entry = try journal.entry(row) { finished(entry) }
        } catch {
            logger.warning("journal: entry \(row) cannot be read back for the site: \(error)")
        }
    }

    static let videoPollStep: Duration = .milliseconds(100)

    private func pictureAtAnswer(_ c: IntercomEvent.CallRef, row: Int64, time: Date) async {
        // Asked every `videoPollStep` of the engine's clock until `answerVideoWait` has passed.
        var waited = Duration.zero
        var jpeg = await pictures.videoJPEG(call: c.id)
        while jpeg == nil && waited < answerVideoWait {
            do { try await clock.sleep(for: Self.videoPollStep) } catch { break }
            waited += Self.videoPollStep
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

    // MARK: - Clips

    /// `record = rings`: the panel's stream into a new clip from now on. A panel without a stream,
    /// or whose stream fails, is named once in the log; its still pictures are kept as ever.
    private func startRing(_ c: IntercomEvent.CallRef, row: Int64) async {
        guard let clips, await clips.recordMode(panel: c.panel).recordsRings else { return }
        let panel = c.panel ?? "?"
        guard let source = await clips.ringStream(panel: c.panel) else {
            if streamTroubleSaid.insert(panel).inserted {
                logger.notice("journal: panel \(panel) has no camera stream (rtsp = off): rings keep their still picture only")
            }
            return
        }
        do {
            let path = try Journal.newClipFile(in: journal.picturesDirectory, slot: .ring)
            // Named at once: a crash mid-ring leaves the clip with its entry, not orphaned.
            try journal.setClip(path, row: row, slot: .ring)
            inProgress[c.id]?.ring = StreamRecorder(source: source, path: path, maxLength: ringClipLimit)
        } catch {
            logger.warning("journal: ring of call \(c.id) not recorded: \(error)")
        }
    }

    /// Ends a ring's recording; a clip with no picture in it is removed and forgotten.
    private func finishRing(_ call: CallID) async {
        guard let recording = inProgress[call], let recorder = recording.ring else { return }
        inProgress[call]?.ring = nil
        await finishRing(recorder, row: recording.row)
    }

    private func finishRing(_ recorder: StreamRecorder, row: Int64) async {
        let outcome = await recorder.stop()
        if let error = outcome.error {
            if streamTroubleSaid.insert(recorder.source.displayName).inserted {
                logger.notice("journal: ring clip: \(error); the still picture stays")
            }
        } else {
            streamTroubleSaid.remove(recorder.source.displayName)
        }
        guard !outcome.hasVideo else { return }
        unlink(recorder.path)
        do { try journal.setClip(nil, row: row, slot: .ring) } catch { logger.warning("journal: \(error)") }
    }

    /// The answered call's recording, closed by the phone before `call_ended`: an empty file
    /// (the media never ran) is removed; the clip is remembered for the hooks.
    private func keepCallClip(_ call: CallID, row: Int64) throws(JournalError) {
        if let clip = try journal.clip(row: row, slot: .call) {
            var info = stat()
            if stat(clip, &info) != 0 || info.st_size == 0 {
                unlink(clip)
                try journal.setClip(nil, row: row, slot: .call)
            } else {
                chmod(clip, 0o600)
            }
        }
        let recorded = try journal.clip(row: row, slot: .call)
        let rang = try journal.clip(row: row, slot: .ring)
        guard let clip = recorded ?? rang else { return }
        recent.keep(clip: clip, of: call)
    }

    private func remember(_ call: CallID, _ path: String) {
        if let waiters = inProgress[call]?.pictureWaiters {
            inProgress[call]?.pictureWaiters = []
            Self.resume(waiters, with: path)
        }
        // Hooks only ask about recent calls.
        recent.keep(picture: path, of: call)
    }
}
