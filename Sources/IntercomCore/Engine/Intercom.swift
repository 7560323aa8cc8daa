import Foundation

/// The one core of the program, in the manner of baresip: it owns the phone and the panels,
/// applies the per-panel policies (unknown callers, do-not-disturb, auto-answer), carries out
/// `IntercomCommand`s and publishes `IntercomEvent`s. The TUI, the daemon, the CLI and the
/// control socket are peer front ends on it.
public actor Intercom {
    public nonisolated let bus = EventBus()
    public let config: IntercomConfig
    private let phoneSettings: PhoneSettings
    private let logger: Logger
    private var phone: Phone?
    private var calls: [CallID: CallSession] = [:]
    private var registration: (account: String, state: RegistrationState, reason: String?)?
    private var registrationRetry: (attempt: Int, task: Task<Void, Never>?) = (0, nil)
    private var pendingAnswers: [CallID: Task<Void, Never>] = [:]
    private var muted = false
    private var onSpeaker = false
    private var eventPump: Task<Void, Never>?

    public init(config: IntercomConfig, phoneSettings: PhoneSettings, logger: Logger) {
        self.config = config
        self.phoneSettings = phoneSettings
        self.logger = logger
    }

    /// The addresses the phone listens on once started.
    public private(set) var listening: [ListenAddress] = []

    public var video: VideoFrameHub? { phone?.video }

    /// Starts the phone and publishes `started`. Throws `PhoneError` (port in use → exit 69).
    public func start() async throws {
        let phone = try await Phone.start(phoneSettings, logger: logger)
        self.phone = phone
        listening = phone.listening
        eventPump = Task { [weak self] in
            for await event in phone.events { await self?.handle(event) }
        }
        publish(.started(listen: phone.listening.map(\.description), version: IntercomVersion.string))
    }

    /// Ends calls, stops the phone and ends every subscriber's stream.
    public func stop() async {
        for task in pendingAnswers.values { task.cancel() }
        registrationRetry.task?.cancel()
        if let phone { await phone.stop() }
        await eventPump?.value
        phone = nil
        bus.finish()
    }

    // MARK: - Commands

    /// Carries out one command; the reply is the `data` of a control-socket answer.
    @discardableResult
    public func execute(_ command: IntercomCommand) async throws -> JSONValue {
        guard let phone else { throw IntercomError.notStarted }
        do {
            switch command {
            case .answer(let id):
                let session = try pick(id, stage: .ringing, what: "ringing")
                try await answer(session.info.id, by: .user, phone: phone)
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
                muted = wanted ?? !muted
                try await phone.setMicrophoneMuted(muted)
                return .object([("muted", .bool(muted))])
            case .speaker(let wanted):
                onSpeaker = wanted ?? !onSpeaker
                let device = onSpeaker ? config.audio.speaker : config.audio.playback
                if device != "default" {
                    let active = calls.values.first { $0.stage == .active }?.info.id
                    try await phone.setOutputDevice(device, call: active)
                }
                return .object([("speaker", .bool(onSpeaker)), ("device", .string(device))])
            case .status:
                return status
            }
        } catch let error as PhoneError {
            throw IntercomError.phone(error)
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
                     ("guest_mode", .bool(panel.isGuestModeActive(at: Date())))])
        }
        return .object([("calls", .array(callList)), ("registration", reg), ("panels", .array(panels)),
                        ("listen", .array(listening.map { .string($0.description) })),
                        ("muted", .bool(muted)), ("speaker", .bool(onSpeaker))])
    }

    /// A named call, or the one of `stage` that has waited longest.
    private func pick(_ id: CallID?, stage: CallSession.Stage, what: String) throws -> CallSession {
        if let id {
            guard let session = calls[id] else { throw IntercomError.phone(.noSuchCall(id)) }
            return session
        }
        let candidates = calls.values.filter { $0.stage == stage }.sorted { $0.since < $1.since }
        if let first = candidates.first { return first }
        if stage == .active, let ringing = calls.values.sorted(by: { $0.since < $1.since }).first { return ringing }
        throw IntercomError.noCall(what)
    }

    private func answer(_ id: CallID, by: IntercomEvent.AnsweredBy, phone: Phone) async throws {
        pendingAnswers.removeValue(forKey: id)?.cancel()
        calls[id]?.stage = .answering
        calls[id]?.answeredBy = by
        do {
            try await phone.answer(id, video: true)
        } catch {
            if calls[id]?.stage == .answering { calls[id]?.stage = .ringing }
            throw error
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
                publish(.registered(account: account, reason: reason))
            case .failed:
                publish(.registrationFailed(account: account, reason: reason))
                scheduleRegistrationRetry(phone)
            case .progress, .cleared:
                logger.info("registration of \(account): \(state.rawValue)")
            }
        case .incoming(let info):
            await incoming(info, phone: phone)
        case .outgoing(let info):
            calls[info.id] = CallSession(info: info, panel: config.panel(matchingURI: info.to, ip: info.remoteHost),
                                         stage: .ringing, since: Date())
        case .ringing:
            break
        case .established(let id, let media):
            guard var session = calls[id] else { return }
            session.stage = .active
            calls[id] = session
            if session.info.offersVideo && media.videoCodec == nil {
                logger.warning("call \(id) runs without video although the caller offered it (no common video codec)")
            }
            if session.info.direction == .incoming {
                publish(.callAnswered(session.ref, by: session.answeredBy ?? .user))
            }
        case .ended(let id, let reason, let duration, let detail):
            pendingAnswers.removeValue(forKey: id)?.cancel()
            guard let session = calls.removeValue(forKey: id) else { return }
            if reason == .error { logger.warning("call \(id) failed: \(detail ?? "no reason given")") }
            publish(.callEnded(session.ref, reason: reason, durationSeconds: duration))
        case .dtmfReceived(let id, let digit):
            logger.debug("call \(id): DTMF \(digit) received")
        case .dtmfSent(let id, let digits):
            logger.debug("call \(id): DTMF \(digits) sent")
        }
    }

    private func incoming(_ info: CallInfo, phone: Phone) async {
        let panel = config.panel(matchingURI: info.from, ip: info.remoteHost)
        if panel == nil && config.sip.unknownCallers == .reject {
            // An exposed SIP port is scanned constantly: one log line, no event, no journal entry.
            logger.notice("rejected call from \(info.from) (\(info.remoteHost ?? "?")): it matches no panel and [sip] unknown_callers = reject")
            try? await phone.decline(info.id, reason: .forbidden)
            return
        }
        let session = CallSession(info: info, panel: panel, stage: .ringing, since: Date())
        calls[info.id] = session
        publish(.callIncoming(session.ref))
        guard let panel else { return }
        if !panel.calls {
            logger.info("call \(info.id) from panel \(panel.name) declined: calls = off (do not disturb)")
            try? await phone.decline(info.id, reason: .doNotDisturb)
            return
        }
        switch panel.autoAnswer {
        case .off:
            break
        case .on:
            await autoAnswer(info.id, phone: phone)
        case .after(let seconds):
            pendingAnswers[info.id] = Task { [weak self] in
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                guard !Task.isCancelled else { return }
                await self?.autoAnswer(info.id, phone: phone)
            }
        }
    }

    private func autoAnswer(_ id: CallID, phone: Phone) async {
        guard calls[id]?.stage == .ringing else { return }
        do {
            try await answer(id, by: .auto, phone: phone)
        } catch {
            logger.warning("auto-answer of call \(id) failed: \(error)")
        }
    }

    /// liblinphone gives up after a failed REGISTER until its next refresh; we retry sooner,
    /// 1 s doubling to 60 s, and say so in the log.
    private func scheduleRegistrationRetry(_ phone: Phone) {
        registrationRetry.task?.cancel()
        let delay = min(60, 1 << min(registrationRetry.attempt, 6))
        registrationRetry.attempt += 1
        logger.notice("registration failed; retrying in \(delay) s")
        registrationRetry.task = Task {
            try? await Task.sleep(nanoseconds: UInt64(delay) * 1_000_000_000)
            guard !Task.isCancelled else { return }
            try? await phone.refreshRegistration()
        }
    }

    private func publish(_ kind: IntercomEvent.Kind) {
        bus.publish(IntercomEvent(kind))
    }
}
