import Foundation
import IntercomCore
import IntercomBase

/// What happens to every event besides the front end's own use, in order: `first` (the daemon
/// prints JSON there), the journal, then the hooks, so a hook's INTERCOM_SNAPSHOT names a picture
/// already on disk. The daemon and the terminal client each run one; whichever starts first
/// records the journal (`JournalWriterLock`), the other reads it. An incoming call's hook waits
/// up to `[hooks] snapshot_wait_ms` for the call's first picture, beside the loop.
public final class EventPipeline: Sendable {
    public let recorder: JournalRecorder?
    public let hooks: HookRunner
    private let lock: JournalWriterLock?
    private let consumer: Task<Void, Never>
    private let retention: Task<Void, Never>
    /// The copy of the operators' event logs, kept by whichever process writes the journal.
    public let operatorLog: OperatorLogSync?
    private let operatorLogTask: Task<Void, Never>?
    /// The entries the journal finished, on their way to the site (`Intercom.shareJournal`) beside
    /// the events' loop, so a slow store never holds the events up; a lone desk's link is nil and
    /// the entries end there.
    private let finished: AsyncStream<JournalEntry>.Continuation
    private let sharing: Task<Void, Never>

    /// Subscribes at once: create it before `intercom.start()` so `started` goes through it too.
    public init(intercom: Intercom, config: IntercomConfig, environment: [String: String], logger: Logger,
                first: @escaping @Sendable (IntercomEvent) -> Void = { _ in }) {
        let directory = JournalLocation.directory(config.journal, environment: environment)
        var lock: JournalWriterLock?
        var recorder: JournalRecorder?
        let (entries, finished) = AsyncStream<JournalEntry>.makeStream()
        self.finished = finished
        sharing = Task { for await entry in entries { await intercom.shareJournal(entry) } }
        // The journal failing to open is logged, not fatal: calls matter more than their record.
        do {
            // Without XDG_DATA_HOME and HOME the journal lies in the shared-/tmp fallback: only if it is ours alone.
            try PrivateDirectory.ensureIfFallback(directory)
            lock = try JournalWriterLock(directory: directory)
            if lock != nil {
                let journal = try Journal(directory: directory)
                let interrupted = try journal.closeInterruptedCalls()
                if interrupted > 0 { logger.notice("journal: \(interrupted) call(s) cut short by the previous run marked interrupted") }
                let orphans = journal.removeOrphanedPictures()
                if orphans > 0 { logger.notice("journal: removed \(orphans) half-written picture(s) of the previous run") }
                let strayClips = try journal.removeOrphanedClips()
                if strayClips > 0 { logger.notice("journal: removed \(strayClips) clip(s) no entry names") }
                recorder = JournalRecorder(journal: journal, pictures: IntercomPictureSource(intercom), logger: logger,
                                           clips: IntercomClipSource(intercom), clock: intercom.clock,
                                           finished: { finished.yield($0) })
                // Only the journal's writer records calls: the clips go where its entries are.
                intercom.clips.setFolder(journal.picturesDirectory)
            } else {
                logger.notice("journal: another intercom records into \(directory); this one does not")
            }
        } catch {
            logger.error("\(error); running without a journal")
        }
        self.lock = lock
        self.recorder = recorder
        if let journal = recorder?.journal {
            intercom.useJournal(journal)
            let bus = intercom.bus
            let sync = OperatorLogSync(journal: journal, accounts: intercom.operators, logger: logger,
                                       publish: { bus.publish($0) })
            operatorLog = sync
            operatorLogTask = Task {
                await sync.observeUnread { name, count in await intercom.noteUnread(name, count) }
                await sync.run(operators: { await intercom.config.operators })
            }
        } else {
            operatorLog = nil
            operatorLogTask = nil
        }
        let hooks = HookRunner(hooks: config.hooks, logger: logger,
                               snapshotWait: .milliseconds(config.hookSnapshotWaitMs))
        self.hooks = hooks
        let events = intercom.bus.subscribe()
        consumer = Task { [recorder] in
            for await event in events {
                first(event)
                await recorder?.record(event)
                if await hooks.hasHook(for: event) {
                    let clip: String? = if let call = event.call { await recorder?.latestClip(call: call.id) } else { nil }
                    let wait = await hooks.pictureWait(for: event)
                    if let call = event.call, let recorder, wait > .zero {
                        // A ringing call's first picture comes a few ms after the ring, through this
                        // very loop: the wait runs beside it, never holding the events up.
                        hooks.background {
                            let snapshot = await recorder.picture(call: call.id, within: wait)
                            _ = await hooks.run(event, snapshot: snapshot, clip: clip)
                        }
                    } else {
                        let snapshot: String? = if let call = event.call { await recorder?.latestPicture(call: call.id) } else { nil }
                        hooks.fire(event, snapshot: snapshot, clip: clip)
                    }
                }
            }
            await recorder?.settle()
        }
        retention = Task { [recorder] in
            guard let journal = recorder?.journal else { return }
            while !Task.isCancelled {
                let settings = await intercom.config.journal
                do {
                    let removed = try journal.prune(keepDays: settings.keepDays, maxBytes: Int64(settings.maxMB) << 20)
                    if removed > 0 { logger.notice("journal: removed \(removed) old entries") }
                } catch {
                    logger.warning("journal retention: \(error)")
                }
                try? await Task.sleep(for: .seconds(3600))
            }
        }
    }

    /// Whether this process records the journal: the one front end that also publishes to MQTT.
    public var recordsJournal: Bool { lock != nil }

    /// Waits until every event up to the bus's end (`intercom.stop()`) went through, and the
    /// hooks they started have ended; the retention and the operators' log copy stop.
    public func finish() async {
        retention.cancel()
        operatorLogTask?.cancel()
        await consumer.value
        finished.finish()
        await sharing.value
        await hooks.settle()
        await retention.value
        await operatorLogTask?.value
        withExtendedLifetime(lock) {}
    }
}
