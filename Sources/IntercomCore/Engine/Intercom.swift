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
    public nonisolated var peephole: PeepholeHub { subscriptions.hub }
    /// What every subscriber asks of each panel's picture, merged into `peephole`'s wants: the
    /// `picture` command's table, set directly by a screen of this process (its thread cannot wait).
    public nonisolated var pictureWants: PictureWants { subscriptions.pictureWants }
    /// The logged-in operators: their tokens, doors, cameras and unread messages (`Intercom+Operator` routes to them).
    public nonisolated let operators: OperatorAccounts
    /// Clip files of answered calls (`[panel] record`), named here and taken by the journal.
    public nonisolated let clips = CallClips()
    /// Panel policies change on SIGHUP (`IntercomCommand.reload`); the rest is fixed for the core's life.
    public internal(set) var config: IntercomConfig
    /// The switches part: do-not-disturb and guest mode switched at run time, kept in its store.
    var switches: PanelSwitches
    /// One HTTP client per configured panel, each with its own kept-alive connection.
    let panels: [String: any PanelService]
    /// The phone, panels, operators, video and clock as the engine reaches them (fakes in tests).
    let services: IntercomServices
    /// The engine's time: every wait and every `now` goes through it.
    public nonisolated var clock: any EngineClock { services.clock }
    /// The phone's settings and the caller gate they share with the phone thread.
    nonisolated let setup: PhoneSetup
    nonisolated var phoneSettings: PhoneSettings { setup.settings }
    /// Who is calling, by where the packets come from; shared with the phone thread, which
    /// refuses impostors and strangers before liblinphone sees them.
    nonisolated var callerGate: CallerGate { setup.callerGate }
    /// Who each call is from, and the refused callers' log lines.
    var callers = CallerRecognition()
    /// The doors part: which ways a door opens, and when each last opened by itself (`auto_open_interval`).
    var doors = Doors()
    public nonisolated let logger: Logger
    var phone: (any PhoneService)? { started.phone }
    /// The calls, live and ended, and the waits on a call's state (`wait(for:upTo:until:)`).
    var calls = CallRegistry()
    /// The SIP account's registration and its retry.
    var registration = Registration()
    /// Every task the engine and its calls run, counted by owner (tests: none outlives its owner).
    package nonisolated let census = TaskCensus()
    /// What `census` counts a call's tasks under; the engine's own are under `engine`.
    package nonisolated static func taskLabel(call id: CallID) -> String { CallSession.taskLabel(id) }
    /// The engine's own tasks, for its lifetime (the event pump aside): the registration retry,
    /// the operators' refresh, the panels' alarm streams and pictures, an automatic opening in
    /// progress. `stop` cancels them and awaits them.
    nonisolated let tasks: TaskOwner
    /// The missed-call queue's commands (`handled`, `callBack`) on the daemon's journal.
    nonisolated let missedCalls = MissedCalls()
    /// The audio part: the microphone's mute and the speaker toggle.
    private(set) var audio = CallAudio()
    /// The started phone, where it listens, and the pump of its events.
    private var started = StartedPhone()
    /// The subscriptions part: what each face shows without a call, the panels' alarm streams.
    nonisolated let subscriptions: Subscriptions
    /// The site part (`[site]`): this desk's link to its site while `runSite` runs (none for a lone
    /// desk), and who switched what when there (`SiteFlow`, `SiteCallFlow`, `SiteJournalFlow`).
    var site = SiteMembership()

    /// `operatorTokens`: where the operators' tokens are (default: the user's state directory).
    /// `switches`: where run-time do-not-disturb and guest mode are kept (nil: not kept).
    /// `services`: the phone, panels, operators, video and clock (`.system`: the real ones).
    public init(config: IntercomConfig, phoneSettings: PhoneSettings, logger: Logger,
                operatorTokens: OperatorTokenStore? = nil, switches: (any SwitchStore)? = nil,
                services: IntercomServices = .system) {
        self.services = services
        let peephole = PeepholeHub()
        let tasks = TaskOwner("engine", census: census)
        self.tasks = tasks
        var config = config
        var switches = PanelSwitches(store: switches)
        config.panels = switches.load(config.panels, logger: logger)
        self.switches = switches
        self.config = config
        operators = OperatorAccounts(tokens: operatorTokens ?? OperatorTokenStore(environment: ProcessInfo.processInfo.environment),
                                     services: services, logger: logger, tasks: tasks)
        setup = PhoneSetup(phoneSettings) { CallerGate(CallerDirectory(panels: config.panels, sip: config.sip, operatorCalls: !config.operators.isEmpty, logger: logger)) }
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
        subscriptions = Subscriptions(clients: panels, hub: peephole, pictureWants: PictureWants(hub: peephole), tasks: tasks, bus: bus,
                                      logger: logger, clock: services.clock, decodeSize: Peephole.decodeLimit)
    }

    /// The addresses the phone listens on once started.
    public var listening: [ListenAddress] { started.listening }

    public var video: VideoFrameHub? { phone?.video }

    /// Starts the phone and publishes `started`. Throws `PhoneError` (port in use → exit 69).
    public func start() async throws {
        let phone = try await services.startPhone(setup.settings, logger)
        started = StartedPhone(phone, pump: Task { [weak self] in
            for await event in phone.events { await self?.handle(event) }
        })
        publish(.started(listen: phone.listening.map(\.description), version: IntercomVersion.string))
        startOperatorRefresh()
    }

    /// Ends calls, stops the phone and ends every subscriber's stream. Every task of the engine
    /// and of its calls has returned when it returns.
    public func stop() async {
        // Closed first, so nothing the calls' last events do starts a task any more.
        tasks.close()
        // Its camera players are the engine's tasks, ended below.
        await subscriptions.reset()
        let sessions = calls.everyCall
        for session in sessions { session.tasks.close() }
        await tasks.end()
        for session in sessions { await session.tasks.end() }
        if let phone { await phone.stop() }
        await started.eventPump?.value
        // Calls that rang while the phone stopped, ended by it.
        for session in calls.everyCall { await session.tasks.end() }
        calls.forgetEnded()
        started.phone = nil
        bus.finish()
    }

    /// Binds the panels' syslog socket (`[syslog]`) and reads it for the engine's life (`PanelSyslogFlow`);
    /// the address bound, nil when no panel's syslog is heard. Throws `SyslogSocket.OpenError`.
    @discardableResult
    public func hearPanelSyslog() throws -> ListenAddress? { try PanelSyslogFlow().hear(on: self) }

    /// From now on the switches made here go to the site through `link` (kept in its outbox until
    /// `runSite` sends them): the daemon joins before its engine starts.
    public func joinSite(_ link: SiteLink) { site.link = link }

    /// Runs this desk in its site until the calling task (the daemon's site stage) is cancelled (`SiteFlow`).
    public func runSite(_ link: SiteLink) async { await SiteFlow().run(link, on: self) }

    /// An entry `JournalRecorder` finished (`EventPipeline` hands it over beside its loop), for the site.
    public func shareJournal(_ entry: JournalEntry) async { await site.link?.share(entry) }

    /// The sound devices the phone sees (empty before start).
    public func audioDevices() async -> [AudioDevice] {
        guard let phone else { return [] }
        return (try? await phone.audioDevices()) ?? []
    }

    // MARK: - Commands

    /// Carries out one command; the reply is the `data` of a control-socket answer.
    @discardableResult
    public func execute(_ command: IntercomCommand) async throws -> JSONValue {
        if let reply = try await withoutPhone(command) { return reply }
        guard let phone else { throw IntercomError.notStarted }
        do {
            switch command {
            case .answer(let id, let trigger):
                let session = try calls.pick(id, stage: .ringing, what: "ringing")
                try await answer(session.info.id, by: IntercomEvent.AnsweredBy(trigger), phone: phone)
                return .object([("call", .string(session.info.id.rawValue))])
            case .decline(let id):
                let session = try calls.pick(id, stage: .ringing, what: "ringing")
                try await ending(session.info.id) { try await phone.decline(session.info.id) }
                return .object([("call", .string(session.info.id.rawValue))])
            case .hangup(let id):
                let session = try calls.pick(id, stage: .active, what: "answered")
                try await ending(session.info.id) { try await phone.hangup(session.info.id) }
                return .object([("call", .string(session.info.id.rawValue))])
            case .dtmf(let id, let digits):
                let session = try calls.pick(id, stage: .active, what: "answered")
                try await phone.sendDTMF(session.info.id, digits: digits, timing: session.panel?.dtmfTiming ?? DTMFTiming())
                return .object([("call", .string(session.info.id.rawValue)), ("digits", .string(digits))])
            case .mute(let wanted):
                let changed = audio.mute(wanted)
                try await phone.setMicrophoneMuted(audio.muted)
                if changed { publish(audio.changed(config.audio)) }
                return .object([("muted", .bool(audio.muted))])
            case .speaker(let wanted):
                let changed = audio.speaker(wanted), device = audio.outputDevice(config.audio)
                if device != "default" {
                    let active = calls.values.first { $0.stage == .active }?.info.id
                    try await phone.setOutputDevice(device, call: active)
                }
                if changed { publish(audio.changed(config.audio)) }
                return .object([("speaker", .bool(audio.onSpeaker)), ("device", .string(device))])
            case .open(let panel, let door, let by):
                return try await DoorOpeningFlow(phone: phone).open(panel: panel, door: door, by: by, on: self)
            case .call(let panel):
                return try await dial(panel: panel, phone: phone)
            case .transfer(let id, let target):
                let session = try calls.pick(id, stage: .active, what: "answered")
                return try await transfer(session, to: target, phone: phone)
            case .attendedTransfer(let id, let step):
                return try await attendedTransfer(id, step: step, phone: phone)
            case .setCalls(let panel, let on):
                let reply = try setCalls(panel: panel, on: on)
                await SiteFlow().share(reply, .calls, on: self)
                return reply
            case .setGuest(let panel, let until):
                let reply = try setGuest(panel: panel, until: until)
                await SiteFlow().share(reply, .guest, on: self)
                return reply
            case .handled(let entry, let by):
                let reply = try markHandled(entry, by: by)
                await SiteJournalFlow().handledHere(row: entry, by: by, on: self)
                return reply
            case .callBack(let entry, let by):
                let reply = try await callBack(entry, by: by, phone: phone)
                await SiteJournalFlow().handledHere(row: entry, by: by, on: self)
                return reply
            case .status:
                return status
            case .doors:
                return .array(doorList(panels: config.panels.map(\.name)).map(\.json))
            case .journal(let query):
                return try journalEntries(query)
            // Carried out above (`withoutPhone`); never reached here.
            case .watch, .watchCamera, .picture, .unwatch, .shareExpiry, .flatSettings, .reload, .duty, .siteDesks:
                return try await withoutPhone(command) ?? .null
            }
        } catch let error as PhoneError {
            throw IntercomError.phone(error)
        } catch let error as PanelError {
            throw IntercomError.panel(error)
        } catch let error as OperatorError {
            throw IntercomError.operatorRequest(error)
        }
    }

    /// The commands that need no phone, carried out before the phone is asked for: the subscriptions
    /// (an own-engine `watch` never starts it), the operators' API and the config. Nil for the others.
    private func withoutPhone(_ command: IntercomCommand) async throws -> JSONValue? {
        switch command {
        case .watch, .watchCamera, .picture, .unwatch: try await subscription(command)
        case .shareExpiry(let change): try await operators.applyShareExpiry(change, config: config)
        case .flatSettings(let request): try await operators.flatSettings(request, config: config)
        case .reload(let newConfig): .object([("not_applied", .array(reload(newConfig).map { .string($0) }))])
        case .duty(let on, let name): try await SiteFlow().duty(on, operatorName: name, on: self)
        case .siteDesks: try await SiteFlow().desks(on: self)
        default: nil
        }
    }

    /// The `state` object of the control socket: calls, registration, panels.
    public var status: JSONValue {
        IntercomStatus(calls: calls.status,
                       registration: registration.status,
                       panels: config.panels.map { .init(name: $0.name, calls: $0.calls, guestMode: $0.isGuestModeActive(at: clock.date)) },
                       listen: listening.map(\.description),
                       doors: doorList(panels: config.panels.map(\.name)).map(\.json),
                       operators: config.operators.map { .init(name: $0.name, unread: operatorUnread[$0.name]) },
                       muted: audio.muted, speaker: audio.onSpeaker).json.adding(SiteFlow().status(site))
    }


    /// The answered call (else the ringing one) of a panel, or of any panel when nil.
    func currentCall(panel: String?) -> CallSession? { calls.current(panel: panel) }

    func publish(_ kind: IntercomEvent.Kind, who: FaceIdentity? = nil) {
        bus.publish(IntercomEvent(kind, who: who))
    }

    /// A call ended and no conversation is left: the microphone muted in it is on again.
    func unmuteAfterLastCall(phone: any PhoneService) async {
        guard audio.unmuteAfterLastCall(inConversation: calls.inConversation) else { return }
        try? await phone.setMicrophoneMuted(false)
        publish(audio.changed(config.audio))
    }
}
