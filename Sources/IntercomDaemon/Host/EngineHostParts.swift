import Foundation
import IntercomBase
import IntercomCore
import IntercomPhone

/// The engine's pieces as the host's stages: what each stage makes, it keeps until its stop.
public actor EngineHostParts: HostParts {
    /// What differs between the daemon and a screen with its own engine.
    public struct Options: Sendable {
        public var environment: [String: String]
        public var logger: Logger
        /// Called with every event before the journal (the daemon prints JSON there).
        public var first: @Sendable (IntercomEvent) -> Void
        /// Where another intercom records the journal, read it still: a screen's missed-call
        /// queue marks entries there (`c`, call back).
        public var readsOthersJournal: Bool
        /// The MQTT bridge, when configured and this process records the journal.
        public var mqtt: @Sendable (Intercom, EventPipeline) async -> (any HostFace)?
        /// The desk's link to its site, when `[site]` says one (a target the daemon's does not import
        /// opens the store); throws what keeps the daemon from starting (a config the store refuses).
        public var site: @Sendable (Intercom) async throws -> (any HostFace)?

        public init(environment: [String: String], logger: Logger, first: @escaping @Sendable (IntercomEvent) -> Void = { _ in },
                    readsOthersJournal: Bool = false, mqtt: @escaping @Sendable (Intercom, EventPipeline) async -> (any HostFace)?,
                    site: @escaping @Sendable (Intercom) async throws -> (any HostFace)? = { _ in nil }) {
            self.environment = environment
            self.logger = logger
            self.first = first
            self.readsOthersJournal = readsOthersJournal
            self.mqtt = mqtt
            self.site = site
        }
    }

    public let intercom: Intercom
    private let options: Options
    public private(set) var pipeline: EventPipeline?
    public private(set) var desktop: DesktopNotifier?
    private var mqtt: (any HostFace)?
    private var site: (any HostFace)?
    private var control: ControlServer?
    private var sharesKeeper: ShareExpiryKeeper?
    private var shares: Task<Void, Never>?
    private var systemd: SystemdNotifier?
    private var listening = ""

    public init(intercom: Intercom, options: Options) {
        self.intercom = intercom
        self.options = options
    }

    public func start(_ stage: HostStage) async throws {
        let logger = options.logger
        switch stage {
        case .pipeline:
            let pipeline = await EventPipeline(intercom: intercom, config: intercom.config, environment: options.environment,
                                               logger: logger, first: options.first)
            if pipeline.recorder == nil, options.readsOthersJournal {
                let directory = JournalLocation.directory(await intercom.config.journal, environment: options.environment)
                if let journal = try? Journal(directory: directory, create: false) { intercom.useJournal(journal) }
            }
            self.pipeline = pipeline
        case .mqtt:
            if let pipeline { mqtt = await options.mqtt(intercom, pipeline) }
        case .controlSocket:
            // Made before the socket serves, so a `share_expiry` request finds it; run at its own stage.
            sharesKeeper = intercom.shareExpiryKeeper(store: ShareExpiryStore(environment: options.environment))
            let control = ControlServer(path: await intercom.config.daemon.socketPath, intercom: intercom, logger: logger)
            self.control = control
            try control.start()
        case .desktop:
            desktop = await DesktopNotifier.start(intercom: intercom, mode: intercom.config.notify.desktop,
                                                  environment: options.environment, logger: logger)
        case .site:
            site = try await options.site(intercom)
            await site?.start()
        case .engine:
            try await intercom.start()
        case .mqttConnect:
            await mqtt?.start()
        case .shareExpiry:
            if let keeper = sharesKeeper { shares = Task { await keeper.run() } }
        case .panelAlarms:
            await intercom.watchPanels()
            try await intercom.hearPanelSyslog()
        case .serving:
            break
        case .ready:
            listening = await intercom.listening.map(\.description).joined(separator: ", ")
            logger.notice("listening on \(listening)")
            if let problem = SoundCheck.problem(await intercom.audioDevices()) { logger.notice(problem) }
            // Said at start, not only at the first switch: under systemd `doctor` cannot see the sandbox.
            do {
                _ = try StateDirectory.inspect(StateDirectory.path(environment: options.environment))
            } catch {
                logger.warning("\(error); do-not-disturb and guest switches will be refused until it is fixed")
            }
            let intercom = intercom
            let systemd = SystemdNotifier(alive: { _ = await intercom.status })
            systemd.ready(status: "listening on \(listening)")
            self.systemd = systemd
        }
    }

    public func stop(_ stage: HostStage) async {
        switch stage {
        case .pipeline:
            // The engine's stop ended the bus already; a start that failed before the engine ran
            // did not, and the pipeline reads the bus to its end.
            intercom.bus.finish()
            await pipeline?.finish()
            // Its journal lock goes with it: a host started again records the journal.
            pipeline = nil
        case .mqtt: await mqtt?.stop()
        case .controlSocket, .serving:
            // Stopping twice is harmless: the second finds the socket closed.
            control?.stop()
            await control?.settle()
        case .desktop: await desktop?.stop()
        case .site: await site?.stop()
        case .engine: await intercom.stop()
        case .shareExpiry:
            shares?.cancel()
            await shares?.value
        case .ready: systemd?.stopping()
        case .mqttConnect, .panelAlarms: break
        }
    }

    /// SIGHUP: applies `config`'s panel policies and hooks (calls in progress go on) and logs what
    /// needs a restart; nil (a config that no longer loads) leaves everything as it was.
    public func reload(_ config: IntercomConfig?) async {
        let logger = options.logger
        systemd?.reloading()
        if let config {
            do {
                let notApplied = try await intercom.execute(.reload(config)).notApplied
                await pipeline?.hooks.update(config.hookSettings)
                for line in notApplied { logger.warning("SIGHUP: \(line)") }
                logger.notice("SIGHUP: config reloaded (panel policies, hooks, journal retention)")
            } catch {
                logger.warning("SIGHUP: the config was not applied: \(error)")
            }
        }
        // A login since the last round (or a new [operator]) gets its event log copied now.
        await pipeline?.operatorLog?.syncNow()
        systemd?.ready(status: "listening on \(listening)")
    }
}
