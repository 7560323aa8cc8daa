import Foundation
import IntercomBase
import IntercomImaging
import IntercomOperator
import IntercomPanel
import IntercomPhone
import Synchronization

/// The one core of the program, in the manner of baresip: it owns the phone and the panels,
/// applies the per-panel policies (unknown callers, do-not-disturb, auto-answer), carries out
/// `IntercomCommand`s and publishes `IntercomEvent`s. The TUI, the daemon, the CLI and the
/// control socket are peer front ends on it.
public actor Intercom {
    public nonisolated let bus = EventBus()
    /// Peephole pictures of ringing calls, for front ends that draw them.
    public nonisolated let peephole = PeepholeHub()
    /// The logged-in operators' doors, refreshed in the background (`refreshOperatorDoors`).
    public nonisolated let operatorDoors = OperatorDoorDirectory()
    /// Clip files of answered calls (`[panel] record`), named here and taken by the journal.
    public nonisolated let clips = CallClips()
    /// Where `intercom login` keeps the operators' tokens.
    public nonisolated let operatorTokens: OperatorTokenStore
    var operatorRefresh: Task<Void, Never>?
    /// Panel policies change on SIGHUP (`updatePanels`); the rest is fixed for the core's life.
    public internal(set) var config: IntercomConfig
    /// Do-not-disturb and guest mode switched at run time, kept across restarts; nil = not kept.
    let switches: PanelSwitchStore?
    /// The panels as the config file has them (before the switches), by lowercased name.
    var configuredPanels: [String: PanelConfig] = [:]
    /// One HTTP client per configured panel, each with its own kept-alive connection.
    let panels: [String: any PanelService]
    /// The phone, panels, operators, video and clock as the engine reaches them (fakes in tests).
    let services: IntercomServices
    /// The engine's time: every wait and every `now` goes through it.
    nonisolated var clock: any EngineClock { services.clock }
    let phoneSettings: PhoneSettings
    /// Who is calling, by where the packets come from; shared with the phone thread, which
    /// refuses impostors and strangers before liblinphone sees them.
    nonisolated let callerGate: CallerGate
    var refusedCallers = RefusedCallerLog()
    /// When each panel's door last opened by itself (guest mode, hooks), for `auto_open_interval`.
    var lastAutomaticOpen: [String: Date] = [:]
    public nonisolated let logger: Logger
    private var phone: (any PhoneService)?
    /// Every change wakes the waits on a call's state (`wait(for:upTo:until:)`).
    var calls: [CallID: CallSession] = [:] { didSet { wakeCallWaiters() } }
    /// Waits for a change in `calls`; and each wait on a call's state, true once its time ran out.
    var callWaiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    var callWaitsTimedOut: [UUID: Bool] = [:]
    var registration: (account: String, state: RegistrationState, reason: String?)?
    var registrationRetry: (attempt: Int, task: Task<Void, Never>?) = (0, nil)
    var pendingAnswers: [CallID: Task<Void, Never>] = [:]
    var peepholes: [CallID: Task<Void, Never>] = [:]
    /// The calls' live streams, beside their snapshot peepholes; stopping one is awaited.
    var livePeepholes: [CallID: Task<Void, Never>] = [:]
    /// Streams of ended calls still stopping: `stop` waits for them too.
    var stoppingStreams: [CallID: Task<Void, Never>] = [:]
    /// Outgoing calls that ended before `dial` resumed, with why.
    var endedBeforeAnnounced: [CallID: CallEndReason] = [:]
    /// Snapshots are decoded no larger than this: more than any terminal picture needs.
    let peepholeDecodeSize: PixelSize? = PixelSize(width: 640, height: 480)
    /// The journal the daemon keeps, for the missed-call queue's commands (`handled`, `callBack`);
    /// set without awaiting, by the event pipeline as it opens the journal (`useJournal`).
    nonisolated let journalSlot = Mutex<Journal?>(nil)
    var muted = false
    /// Each operator's unread messages as the daemon's last inbox round found them (`ctl status`).
    public private(set) var operatorUnread: [String: Int] = [:]
    private var onSpeaker = false
    private var eventPump: Task<Void, Never>?
    var alarmWatchers: [Task<Void, Never>] = []
    var watchers: [Task<Void, Never>] = []
    /// The live streams of `watch`; each stops its decode thread before its task ends.
    var liveWatchers: [Task<Void, Never>] = []

    /// `operatorTokens`: where the operators' tokens are (default: the user's state directory).
    /// `switches`: where run-time do-not-disturb and guest mode are kept (nil: not kept).
    /// `services`: the phone, panels, operators, video and clock (`.system`: the real ones).
    public init(config: IntercomConfig, phoneSettings: PhoneSettings, logger: Logger,
                operatorTokens: OperatorTokenStore? = nil, switches: PanelSwitchStore? = nil,
                services: IntercomServices = .system) {
        self.services = services
        var config = config
        if let switches {
            let applied = Self.withSwitches(config.panels, store: switches, logger: logger)
            config.panels = applied.panels
            configuredPanels = applied.configured
        } else {
            configuredPanels = Dictionary(config.panels.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        }
        self.switches = switches
        self.config = config
        self.operatorTokens = operatorTokens ?? OperatorTokenStore(environment: ProcessInfo.processInfo.environment)
        var phoneSettings = phoneSettings
        let gate = phoneSettings.callerGate ?? CallerGate(CallerDirectory(panels: config.panels, sip: config.sip, operatorCalls: !config.operators.isEmpty, logger: logger))
        phoneSettings.callerGate = gate
        self.callerGate = gate
        self.phoneSettings = phoneSettings
        self.logger = logger
        var panels: [String: any PanelService] = [:]
        for panel in config.panels {
            do {
                panels[panel.name] = try services.panel(panel)
            } catch {
                logger.warning("panel \(panel.name) has no HTTP client: \(error)")
            }
        }
        self.panels = panels
    }

    /// The addresses the phone listens on once started.
    public private(set) var listening: [ListenAddress] = []

    public var video: VideoFrameHub? { phone?.video }

    /// Starts the phone and publishes `started`. Throws `PhoneError` (port in use → exit 69).
    public func start() async throws {
        let phone = try await services.startPhone(phoneSettings, logger)
        self.phone = phone
        listening = phone.listening
        eventPump = Task { [weak self] in
            for await event in phone.events { await self?.handle(event) }
        }
        publish(.started(listen: phone.listening.map(\.description), version: IntercomVersion.string))
        startOperatorRefresh()
    }

    /// Ends calls, stops the phone and ends every subscriber's stream.
    public func stop() async {
        for task in alarmWatchers { task.cancel() }
        for task in watchers { task.cancel() }
        operatorRefresh?.cancel()
        for task in pendingAnswers.values { task.cancel() }
        for task in peepholes.values { task.cancel() }
        let streams = liveWatchers + Array(livePeepholes.values) + Array(stoppingStreams.values)
        liveWatchers = []
        livePeepholes = [:]
        stoppingStreams = [:]
        for task in streams { task.cancel() }
        for task in streams { await task.value }
        registrationRetry.task?.cancel()
        if let phone { await phone.stop() }
        await eventPump?.value
        phone = nil
        bus.finish()
    }

    /// The sound devices the phone sees (empty before start).
    public func audioDevices() async -> [AudioDevice] {
        guard let phone else { return [] }
        return (try? await phone.audioDevices()) ?? []
    }

    // MARK: - Commands

    /// Carries out one command; the reply is the `data` of a control-socket answer.
    @discardableResult
    public func execute(_ command: IntercomCommand) async throws -> JSONValue {
        guard let phone else { throw IntercomError.notStarted }
        do {
            switch command {
            case .answer(let id, let trigger):
                let session = try pick(id, stage: .ringing, what: "ringing")
                try await answer(session.info.id, by: IntercomEvent.AnsweredBy(trigger), phone: phone)
                return .object([("call", .string(session.info.id.rawValue))])
            case .decline(let id):
                let session = try pick(id, stage: .ringing, what: "ringing")
                try await phone.decline(session.info.id)
                return .object([("call", .string(session.info.id.rawValue))])
            case .hangup(let id):
                let session = try pick(id, stage: .active, what: "answered")
                try await phone.hangup(session.info.id)
                return .object([("call", .string(session.info.id.rawValue))])
            case .dtmf(let id, let digits):
                let session = try pick(id, stage: .active, what: "answered")
                try await phone.sendDTMF(session.info.id, digits: digits, timing: session.panel?.dtmfTiming ?? DTMFTiming())
                return .object([("call", .string(session.info.id.rawValue)), ("digits", .string(digits))])
            case .mute(let wanted):
                let before = muted
                muted = wanted ?? !muted
                try await phone.setMicrophoneMuted(muted)
                if muted != before { publishAudio() }
                return .object([("muted", .bool(muted))])
            case .speaker(let wanted):
                let before = onSpeaker
                onSpeaker = wanted ?? !onSpeaker
                let device = outputDevice
                if device != "default" {
                    let active = calls.values.first { $0.stage == .active }?.info.id
                    try await phone.setOutputDevice(device, call: active)
                }
                if onSpeaker != before { publishAudio() }
                return .object([("speaker", .bool(onSpeaker)), ("device", .string(device))])
            case .open(let panel, let door, let by):
                return try await open(panel: panel, door: door, by: by, phone: phone)
            case .call(let panel):
                return try await dial(panel: panel, phone: phone)
            case .transfer(let id, let target):
                let session = try pick(id, stage: .active, what: "answered")
                return try await transfer(session, to: target, phone: phone)
            case .setCalls(let panel, let on):
                return try setCalls(panel: panel, on: on)
            case .setGuest(let panel, let until):
                return try setGuest(panel: panel, until: until)
            case .handled(let entry, let by):
                return try markHandled(entry, by: by)
            case .callBack(let entry, let by):
                return try await callBack(entry, by: by, phone: phone)
            case .status:
                return status
            case .doors:
                return .array(doorList(panels: config.panels.map(\.name)).map(\.json))
            case .journal(let query):
                return try journalEntries(query)
            }
        } catch let error as PhoneError {
            throw IntercomError.phone(error)
        } catch let error as PanelError {
            throw IntercomError.panel(error)
        } catch let error as OperatorError {
            throw IntercomError.operatorRequest(error)
        }
    }

    /// The `state` object of the control socket: calls, registration, panels.
    public var status: JSONValue {
        let callList = calls.values.sorted { $0.info.id < $1.info.id }.map(\.json)
        let reg: JSONValue = registration.map {
            .object([("account", .string($0.account)), ("state", .string($0.state.rawValue)), ("reason", .optional($0.reason))])
        } ?? .null
        let panels = config.panels.map { panel -> JSONValue in
            .object([("name", .string(panel.name)), ("calls", .bool(panel.calls)),
                     ("guest_mode", .bool(panel.isGuestModeActive(at: clock.date)))])
        }
        return .object([("calls", .array(callList)), ("registration", reg), ("panels", .array(panels)),
                        ("listen", .array(listening.map { .string($0.description) })),
                        ("doors", .array(doorList(panels: config.panels.map(\.name)).map(\.json))),
                        ("operators", .array(config.operators.map { op in
                            .object([("name", .string(op.name)), ("unread", operatorUnread[op.name].map { .integer($0) } ?? .null)])
                        })),
                        ("muted", .bool(muted)), ("speaker", .bool(onSpeaker))])
    }

    /// The daemon's inbox round found `count` unread messages at operator `name`.
    public func noteUnread(_ name: String, _ count: Int) { operatorUnread[name] = count }

    /// The answered call (else the ringing one) of a panel, or of any panel when nil.
    func currentCall(panel: String?) -> CallSession? {
        let candidates = calls.values.filter { panel == nil || $0.name?.lowercased() == panel?.lowercased() }
        return candidates.first { $0.stage == .active } ?? candidates.sorted { $0.since < $1.since }.first
    }

    /// A named call, or the one of `stage` that has waited longest.
    func pick(_ id: CallID?, stage: CallSession.Stage, what: String) throws -> CallSession {
        if let id {
            guard let session = calls[id] else { throw IntercomError.phone(.noSuchCall(id)) }
            return session
        }
        let candidates = calls.values.filter { $0.stage == stage }.sorted { $0.since < $1.since }
        if let first = candidates.first { return first }
        if stage == .active, let ringing = calls.values.sorted(by: { $0.since < $1.since }).first { return ringing }
        throw IntercomError.noCall(what)
    }

    func answer(_ id: CallID, by: IntercomEvent.AnsweredBy, phone: any PhoneService) async throws {
        pendingAnswers.removeValue(forKey: id)?.cancel()
        calls[id]?.stage = .answering
        calls[id]?.answeredBy = by
        do {
            let clip = clips.name(for: id, mode: calls[id]?.panel?.record ?? .off, logger: logger)
            do {
                try await phone.answer(id, video: true, recordTo: clip)
            } catch {
                if let clip, clips.take(id) != nil { unlink(clip) }
                throw error
            }
        } catch {
            if calls[id]?.stage == .answering { calls[id]?.stage = .ringing }
            throw error
        }
        if config.sip.declineOthersOnAnswer {
            for other in calls.values where other.info.id != id && other.stage == .ringing {
                logger.info("call \(other.info.id) declined: call \(id) was answered and [sip] decline_others = on")
                try? await phone.decline(other.info.id)
            }
        }
    }

    // MARK: - Phone events

    private func handle(_ event: PhoneEvent) async {
        guard let phone else { return }
        switch event {
        case .listening:
            break
        case .registration(let account, let state, let reason):
            registration = (account, state, reason)
            switch state {
            case .registered:
                registrationRetry.attempt = 0
                registrationRetry.task?.cancel()
                registrationRetry.task = nil
                publish(.registered(account: account, reason: reason))
            case .failed:
                let explained = if let configured = phoneSettings.account {
                    await RegistrationDiagnosis.explain(reason, account: configured, tls: phoneSettings.tls)
                } else { reason }
                registration = (account, state, explained)
                publish(.registrationFailed(account: account, reason: explained))
                scheduleRegistrationRetry(phone)
            case .progress, .cleared:
                logger.info("registration of \(account): \(state.rawValue)")
            }
        case .incoming(let info):
            await incoming(info, phone: phone)
        case .refusedBusy(let info, let detail):
            refusedBusy(info, detail: detail)
        case .outgoing(let info):
            // `dial` names the panel and announces the call once `phone.call` returns.
            if calls[info.id] == nil {
                var session = CallSession(info: info, panel: config.panels.first { $0.dialURI == info.to },
                                          stage: .dialing, since: clock.date)
                session.announced = false
                calls[info.id] = session
            }
        case .ringing:
            break
        case .established(let id, let media):
            guard var session = calls[id] else { return }
            session.stage = .active
            calls[id] = session
            if session.info.offersVideo && media.videoCodec == nil {
                logger.warning("call \(id) runs without video although the caller offered it (no common video codec)")
            }
            switch session.info.direction {
            case .incoming: publish(.callAnswered(session.ref, by: session.answeredBy ?? .user))
            case .outgoing: if session.announced { publish(.callAnswered(session.ref, by: .remote)) }
            }
            if session.answeredBy == .guestMode, let panel = session.panel {
                // The door waits for `confirmed`: a blind or forged INVITE never gets there.
                Task { await self.hangUpUnlessConfirmed(id, panel: panel, phone: phone) }
            }
        case .confirmed(let id):
            guard var session = calls[id] else { return }
            session.confirmed = true
            calls[id] = session
            if session.answeredBy == .guestMode, let panel = session.panel {
                Task { await self.letGuestIn(id, panel: panel, phone: phone) }
            }
        case .ended(let id, let reason, let duration, let detail):
            pendingAnswers.removeValue(forKey: id)?.cancel()
            peepholes.removeValue(forKey: id)?.cancel()
            // The decode thread stops within a read; nothing here waits for it, `stop` does.
            if let stream = livePeepholes.removeValue(forKey: id) {
                stream.cancel()
                stoppingStreams[id] = stream
                Task { await stream.value; self.streamStopped(id) }
            }
            guard let session = calls.removeValue(forKey: id) else { return }
            if reason == .error { logger.warning("call \(id) failed: \(detail ?? "no reason given")") }
            if session.info.direction == .outgoing && !session.announced {
                // Ended before `dial` got its id back: `dial` reports the failure instead.
                endedBeforeAnnounced[id] = reason
                return
            }
            publish(.callEnded(session.ref, reason: reason, durationSeconds: duration))
        case .transferred(let id, let uri, let ok, let detail):
            transferReported(id, uri: uri, ok: ok, detail: detail)
        case .dtmfReceived(let id, let digit):
            logger.debug("call \(id): DTMF \(digit) received")
        case .dtmfSent(let id, let digits):
            logger.debug("call \(id): DTMF \(digits) sent")
        }
    }

    func autoAnswer(_ id: CallID, phone: any PhoneService) async {
        guard calls[id]?.stage == .ringing else { return }
        do {
            try await answer(id, by: .auto, phone: phone)
        } catch {
            logger.warning("auto-answer of call \(id) failed: \(error)")
        }
    }

    func publish(_ kind: IntercomEvent.Kind) {
        bus.publish(IntercomEvent(kind))
    }

    /// Where call audio plays: the speaker toggle picks `[audio] speaker` or `playback`.
    private var outputDevice: String { onSpeaker ? config.audio.speaker : config.audio.playback }

    /// `audio_changed`, read after the phone took the change, so the event tells what is in force.
    private func publishAudio() {
        publish(.audioChanged(muted: muted, speaker: onSpeaker, device: outputDevice))
    }
}
