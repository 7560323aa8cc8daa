import Foundation
import IntercomBase
import IntercomOperator
import Synchronization

/// The logged-in SmartYard operators as the engine keeps them: their tokens, their doors and
/// entrance cameras (refreshed in the background), their unread messages, the rate limit on
/// automatic openings of their doors, and a client of each one's API through the engine's seam
/// (`IntercomServices.operatorClient`: fakes in tests). The engine routes commands to it and reports
/// what it did; the config is passed in with each call (SIGHUP changes it), never kept here.
public final class OperatorAccounts: Sendable {
    /// How often the background refresh asks each operator for its doors.
    static let refreshInterval: TimeInterval = 300
    /// A call from a domophone the list lacks asks again, but not more often than this.
    static let onDemandInterval: TimeInterval = 60
    /// A hook may open an operator door at most once per this per door: the guard the panels'
    /// `auto_open_interval` gives, at its default.
    static let automaticInterval: TimeInterval = 5
    static let refreshSlot = "operator refresh"
    /// A failing refresh is warned at most this often per operator and kind of failure.
    static let refreshWarningInterval = Duration.seconds(3600)

    /// Where `intercom login` keeps the operators' tokens.
    public let tokens: OperatorTokenStore
    /// The logged-in operators' doors and entrance cameras, read without waiting.
    public let doors = OperatorDoorDirectory()
    let services: IntercomServices
    let logger: Logger
    /// The engine's tasks: the refresh runs among them, so the engine's `stop` ends it.
    private let tasks: TaskOwner

    private struct State {
        /// Each operator's unread messages as the daemon's last inbox round found them (`ctl status`).
        var unread: [String: Int] = [:]
        /// When each operator door last opened by itself (hooks), for `automaticInterval`.
        var lastAutomaticOpen: [String: Date] = [:]
        /// The keeper of the shared-access ends the `shareExpiry` command reaches (the host's, when it keeps them).
        var shareExpiries: ShareExpiryKeeper?
        /// The door refresh's warnings by operator and kind: one line an hour, as the log sync's
        /// (a revoked login would otherwise be warned at every 5-minute round).
        var refreshWarnings: [String: LogThrottle] = [:]
    }
    private let state = Mutex(State())

    var clock: any EngineClock { services.clock }

    init(tokens: OperatorTokenStore, services: IntercomServices, logger: Logger, tasks: TaskOwner) {
        self.tokens = tokens
        self.services = services
        self.logger = logger
        self.tasks = tasks
    }

    // MARK: - Clients and unread messages

    /// The operator's API with its stored token (throws `notLoggedIn` without one).
    func client(_ op: OperatorConfig) throws(OperatorError) -> any OperatorService {
        try services.operatorClient(op, try tokens.token(op.name), tokens)
    }

    /// The configured operator `name`'s API (as the config is now: SIGHUP may have removed it).
    func client(named name: String, in config: IntercomConfig) throws -> any OperatorService {
        guard let op = config.operator(named: name) else {
            throw IntercomError.unknownTarget("no [operator \(name)] in the config any more")
        }
        return try client(op)
    }

    var unread: [String: Int] { state.withLock { $0.unread } }

    func noteUnread(_ name: String, _ count: Int) { state.withLock { $0.unread[name] = count } }

    // MARK: - Doors

    /// Fetches each operator's doors and entrance cameras; a failure is logged and the old list
    /// kept. Never throws: a missing login or an unreachable operator must not stop the daemon.
    /// Returns the warnings it logged (throttled: `warnRefreshFailed`).
    @discardableResult
    func refresh(_ operators: [OperatorConfig]) async -> [String] {
        var warned: [String] = []
        doors.keep(only: operators.map(\.name))
        for op in operators {
            do {
                guard let token = try tokens.load(op.name)?.token else {
                    logger.notice("operator \(op.name): not logged in, so its doors and calls are unknown; run 'intercom login \(op.name)'")
                    doors.replace(op.name, with: [], at: clock.date)
                    continue
                }
                let client = try services.operatorClient(op, token, tokens)
                doors.replace(op.name, with: DoorListing.operatorDoors(op.name, try await client.addresses()), at: clock.date)
                state.withLock { s in s.refreshWarnings = s.refreshWarnings.filter { !$0.key.hasPrefix(op.name + "\u{0}") } }
                await refreshCameras(op.name, client: client)
            } catch {
                if let line = warnRefreshFailed(op.name, error) { warned.append(line) }
            }
        }
        return warned
    }

    /// Warns that `name`'s doors were not refreshed, once an hour per kind of failure (with how many
    /// rounds failed since the last line), as the log sync throttles its own.
    private func warnRefreshFailed(_ name: String, _ error: any Error) -> String? {
        let kind = (error as? OperatorError).map { OperatorLogSync.kindName($0.kind) } ?? "other"
        let count = state.withLock { s -> Int? in
            var throttle = s.refreshWarnings[name + "\u{0}" + kind] ?? LogThrottle(every: Self.refreshWarningInterval)
            defer { s.refreshWarnings[name + "\u{0}" + kind] = throttle }
            return throttle.admit()
        }
        guard let count else { return nil }
        let line = "operator \(name): its doors were not refreshed: \(error)" + (count > 1 ? " (\(count) times since the last line)" : "")
        logger.warning(line)
        return line
    }

    /// The background refresh among the engine's tasks: at once, then every `refreshInterval`,
    /// each round over the operators `current` gives then (nil: the engine is gone).
    func startRefresh(_ current: @escaping @Sendable () async -> [OperatorConfig]?) {
        guard !tasks.has(Self.refreshSlot) else { return }
        let clock = clock
        tasks.start(Self.refreshSlot) { [weak self] in
            while !Task.isCancelled, let operators = await current() {
                await self?.refresh(operators)
                try? await clock.sleep(seconds: Self.refreshInterval)
            }
        }
    }

    /// A refresh now unless one ran within `onDemandInterval`; returns at once.
    func refreshSoon(_ operators: [OperatorConfig]) {
        if let oldest = doors.oldestRefresh, clock.date.timeIntervalSince(oldest) < Self.onDemandInterval { return }
        tasks.start { _ = await self.refresh(operators) }
    }

    /// Keeps the operator's entrance cameras for its calls. A server without a camera map keeps
    /// none: its calls ring without a picture.
    private func refreshCameras(_ name: String, client: any OperatorService) async {
        do {
            doors.replaceCameras(name, with: try await client.panelCameras())
        } catch {
            logger.info("operator \(name): no entrance cameras, so its calls ring without a picture: \(error)")
            doors.replaceCameras(name, with: OperatorCameraMap())
        }
    }

    /// Asks the operator to open a door (`address/openDoor`), an automatic opening only within the
    /// rate limit. The engine reports the outcome as `door_opened`.
    func open(_ target: OperatorDoorTarget, automatic: Bool) async throws {
        if automatic { try admitAutomaticOpen(target.id) }
        try await client(target.op).openDoor(domophoneId: target.domophoneId, doorId: target.doorId)
    }

    /// Opens `target` and hands the outcome to `report` (the engine's `door_opened`) before it returns.
    func open(_ target: OperatorDoorTarget, automatic: Bool,
              report: @Sendable ((any Error)?) async -> Void) async throws -> JSONValue {
        do {
            try await open(target, automatic: automatic)
        } catch {
            await report(error)
            if let error = error as? OperatorError { throw IntercomError.operatorRequest(error) }
            throw error
        }
        await report(nil)
        return Self.opened(target.op.name, door: target.id, method: "operator")
    }

    /// A keeper of the shared-access ends in `store`, reaching each operator as the config `config`
    /// gives now (SIGHUP may have removed it: then the keeper says so and tries again later). It is
    /// the one the `shareExpiry` command reaches from now on.
    func shareExpiryKeeper(store: ShareExpiryStore, config: @escaping @Sendable () async throws -> IntercomConfig,
                           publish: @escaping @Sendable (IntercomEvent) -> Void) -> ShareExpiryKeeper {
        let keeper = ShareExpiryKeeper(store: store, clock: clock, logger: logger, client: { [weak self] name in
            guard let self else { throw IntercomError.notStarted }
            return try client(named: name, in: try await config())
        }, publish: publish)
        state.withLock { $0.shareExpiries = keeper }
        return keeper
    }

    /// The `shareExpiry` command: keeps an end for an operator `config` has (the keeper could never
    /// take it back otherwise), or forgets one; saved before it returns.
    func applyShareExpiry(_ change: ShareExpiry.Change, config: IntercomConfig) async throws -> JSONValue {
        guard let keeper = state.withLock({ $0.shareExpiries }) else {
            throw IntercomError.refused("this daemon keeps no ends of shared access")
        }
        if case .keep(let expiry) = change, config.operator(named: expiry.operatorName) == nil {
            throw IntercomError.refused("the daemon has no [operator \(expiry.operatorName)]; reload it (SIGHUP) after adding one")
        }
        do {
            return try await keeper.apply(change)
        } catch {
            throw IntercomError.refused("the end of the access was not kept: \(error)")
        }
    }

    /// Refuses a second automatic opening of door `id` within `automaticInterval`.
    func admitAutomaticOpen(_ id: String) throws {
        let now = clock.date
        try state.withLock { s throws(IntercomError) in
            if let last = s.lastAutomaticOpen[id], now.timeIntervalSince(last) < Self.automaticInterval {
                throw .refused("automatic openings of \(id) are limited to one per \(Int(Self.automaticInterval)) s")
            }
            s.lastAutomaticOpen[id] = now
        }
    }

    /// How `door` of an operator call opens, per `[operator NAME] open`: the door's DTMF digit in
    /// the call (the main door only), else the operator's API.
    func opening(in call: DoorListing?, door: Door, config: IntercomConfig) throws -> OperatorCallOpening {
        guard let listing = call, let op = config.operator(named: listing.owner) else {
            throw IntercomError.unknownPanel("the call's operator is no longer in the config")
        }
        guard door == .main, op.open == .dtmf else {
            let doorId = door == .main ? listing.doorId ?? 0 : door.dsOutput
            let id = OperatorItemID.door(operator: op.name, domophoneId: listing.domophoneId ?? "", doorId: doorId)
            return .api(OperatorDoorTarget(op: op, domophoneId: listing.domophoneId ?? "", doorId: doorId, id: id))
        }
        return .dtmf(op, listing)
    }
}

/// One operator door to open through the API: its operator, panel, door and id (`home:1:0`).
struct OperatorDoorTarget: Sendable {
    let op: OperatorConfig
    let domophoneId: String
    let doorId: Int
    let id: String
}

/// How a door opens in a call from an operator's panel.
enum OperatorCallOpening: Sendable {
    case api(OperatorDoorTarget)
    /// SmartYard's panels take the door's digit (`OperatorAccounts.dtmfDigit`) in the call.
    case dtmf(OperatorConfig, DoorListing)
}

extension OperatorAccounts {
    /// What opens an operator's door in its own call: SmartYard's panels take the door's DTMF
    /// digit, `1` unless the operator set another (only its push message says, which we never get).
    static let dtmfDigit = "1"

    /// The operator door's result in a command's answer.
    static func opened(_ op: String, door: String, method: String) -> JSONValue {
        .object([("operator", .string(op)), ("door", .string(door)),
                 ("attempts", .array([.object([("method", .string(method)), ("ok", .bool(true))])]))])
    }
}
