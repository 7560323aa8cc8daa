import Foundation
import IntercomBase
import IntercomOperator

/// Copies each logged-in operator's event log (`address/plogDays` + `address/plog` of every flat
/// with a log) into the journal, so `intercom log` and the terminal client's journal show it
/// offline, and tells the daemon of each new entry (`operator_event`) and of more unread messages
/// (`inbox/unreaded`, `operator_message`). Runs beside the journal's writer, at start, every
/// `[operator NAME] log_interval` and on `syncNow()` (SIGHUP); nothing waits on it. The first
/// round of an operator the journal never copied only copies: two days of history are not news. A round reads at most the operator's last `windowDays` days and fetches at
/// most `previewsPerRound` preview pictures, so a long log or a slow camera server costs little.
/// Entries are keyed by the operator and their uuid: fetched again, they are not stored twice.
/// It reaches the operators and time through the engine's seams (`IntercomServices`: its
/// `operatorClient` and `clock`), so tests drive it with a fake operator and a manual clock.
public actor OperatorLogSync {
    /// What one round did: new entries, and the lines it logged (tests read them).
    public struct Round: Sendable {
        public var added = 0
        public var logged: [String] = []
    }

    public nonisolated let journal: Journal
    private let tokens: OperatorTokenStore
    /// The operator's API with a token, and the clock of the rounds and their dates.
    private let services: IntercomServices
    private let logger: Logger
    private let windowDays: Int
    private let previewsPerRound: Int
    /// A preview larger than this is not kept (the operator's are small JPEGs).
    static let maxPreviewBytes = 1 << 20
    /// One line per operator and kind of failure, then one an hour with a count, until it works.
    private var throttles: [String: LogThrottle] = [:]
    /// Operators whose last round failed: their next good round says so once.
    private var failing: Set<String> = []
    /// Where `operator_event` and `operator_message` go (the engine's event bus).
    private let publish: @Sendable (IntercomEvent) -> Void
    /// Each operator's unread messages as last asked (`ctl status`, the MQTT sensor).
    public private(set) var unread: [String: Int] = [:]
    /// Told of every new unread count, drops included (`ctl status`, the MQTT sensor's state).
    private var unreadObservers: [@Sendable (String, Int) async -> Void] = []
    /// The wait between rounds, cancelled by `syncNow()`.
    private var sleeper: Task<Void, Never>?
    private var wakeRequested = false

    /// On the engine's operators: their tokens, and its seams (`OperatorAccounts`).
    public init(journal: Journal, accounts: OperatorAccounts, logger: Logger, windowDays: Int = 2,
                previewsPerRound: Int = 20, publish: @escaping @Sendable (IntercomEvent) -> Void = { _ in }) {
        self.init(journal: journal, tokens: accounts.tokens, logger: logger, windowDays: windowDays,
                  previewsPerRound: previewsPerRound, publish: publish, services: accounts.services)
    }

    /// `services`: the operators' APIs and the clock (`.system`: the real ones).
    public init(journal: Journal, tokens: OperatorTokenStore, logger: Logger, windowDays: Int = 2,
                previewsPerRound: Int = 20, publish: @escaping @Sendable (IntercomEvent) -> Void = { _ in },
                services: IntercomServices = .system) {
        self.publish = publish
        self.journal = journal
        self.tokens = tokens
        self.services = services
        self.logger = logger
        self.windowDays = max(1, windowDays)
        self.previewsPerRound = previewsPerRound
    }

    /// Rounds until cancelled, each operator every its `log_interval`; `operators` is read each
    /// round (SIGHUP may change them).
    public func run(operators: @escaping @Sendable () async -> [OperatorConfig]) async {
        await run(operators: operators, on: services.clock)
    }

    /// The rounds on the clock's own instants (monotonic on the system clock).
    private func run<C: EngineClock>(operators: @escaping @Sendable () async -> [OperatorConfig], on clock: C) async {
        var due: [String: C.Instant] = [:]
        while !Task.isCancelled {
            if wakeRequested { due = [:] }
            wakeRequested = false
            let list = await operators()
            let now = clock.now
            let ready = list.filter { op in due[op.name].map { $0 <= now } ?? true }
            if !ready.isEmpty { await sync(ready) }
            for op in ready { due[op.name] = clock.now.advanced(by: .seconds(op.logInterval)) }
            let next = list.compactMap { due[$0.name] }.min() ?? clock.now.advanced(by: .seconds(60))
            guard !wakeRequested else { continue }
            let wait = Task { _ = try? await clock.sleep(until: next, tolerance: nil) }
            sleeper = wait
            // The wait is a task of its own (so syncNow can end it): cancelling the loop ends it too.
            await withTaskCancellationHandler { await wait.value } onCancel: { wait.cancel() }
            sleeper = nil
        }
    }

    /// A round over every operator now (SIGHUP: a login since the last one is picked up).
    public func syncNow() {
        wakeRequested = true
        sleeper?.cancel()
    }

    /// `observer` is told each operator's unread count whenever it changes, awaited within the round
    /// (no task of its own outlives the sync).
    public func observeUnread(_ observer: @escaping @Sendable (String, Int) async -> Void) {
        unreadObservers.append(observer)
    }

    /// One round over `operators`; a failing operator is logged and the others still synced.
    @discardableResult
    public func sync(_ operators: [OperatorConfig], now: Date? = nil) async -> Round {
        let now = now ?? services.clock.date
        var round = Round()
        var previews = previewsPerRound
        for op in operators {
            do {
                guard let token = try tokens.load(op.name)?.token else {
                    throw OperatorError(operatorName: op.name, kind: .notLoggedIn)
                }
                let client = try services.operatorClient(op, token, tokens)
                // Only entries an earlier round could have seen are news.
                let copiedBefore = (try? journal.operatorSyncTimes()[op.name]) != nil
                let fresh = try await sync(op, client, now: now, previews: &previews)
                round.added += fresh.count
                try journal.operatorSynced(op.name, at: now)
                if copiedBefore {
                    for notice in fresh.sorted(by: { $0.time < $1.time }) {
                        publish(IntercomEvent(.operatorEvent(notice), time: notice.time))
                    }
                }
                await checkInbox(op, client)
                if failing.remove(op.name) != nil {
                    note(&round, "operator \(op.name): its event log is copied into the journal again", level: .notice)
                    throttles = throttles.filter { !$0.key.hasPrefix(op.name + "\u{0}") }
                }
            } catch let error as OperatorError {
                // The door refresh already says at notice level that an operator is not logged in.
                fail(&round, op.name, kind: Self.kindName(error.kind),
                     "operator \(op.name): event log not copied: \(error.description)",
                     level: error.kind == .notLoggedIn ? .info : .warning)
            } catch {
                fail(&round, op.name, kind: "journal", "operator \(op.name): event log not copied: \(error)")
            }
        }
        return round
    }

    /// Asks `inbox/unreaded` (which marks nothing read); more than before is an `operator_message`,
    /// the first count this run too when it is not 0. A failure leaves the count as it was.
    private func checkInbox(_ op: OperatorConfig, _ client: any OperatorService) async {
        guard let count = try? await client.unreadMessages() else { return }
        let before = unread[op.name]
        unread[op.name] = count
        if before != count { for observer in unreadObservers { await observer(op.name, count) } }
        if count > (before ?? 0) { publish(IntercomEvent(.operatorMessage(operator: op.name, unread: count))) }
    }

    private func sync(_ op: OperatorConfig, _ client: any OperatorService, now: Date, previews: inout Int) async throws -> [OperatorLogNotice] {
        let zone = await client.timeZone()
        // The operator's dates: today and the days before it, `windowDays` in all, and one day more
        // back: the server buckets its log into days in a third zone (its ClickHouse's), which is
        // neither ours nor the one its times are written in, so an entry near midnight can sit in
        // the day before the one its time says. Later days are never cut off. An entry read twice
        // (in two buckets, or two rounds) is recorded once: the journal keys it by its uuid.
        let first = OperatorTime.day(now.addingTimeInterval(-Double(windowDays) * 86400), timeZone: zone)
        var added: [OperatorLogNotice] = []
        for flat in try await client.flats() where flat.hasPlog {
            let days = try await client.plogDays(flatId: flat.flatId).map(\.day).filter { $0 >= first }.sorted()
            for day in days {
                for entry in try await client.plog(flatId: flat.flatId, day: day) {
                    guard let row = try journal.recordOperatorEvent(entry.journalEntry(operator: op.name, flat: flat)) else {
                        continue
                    }
                    var picture: String?
                    if let url = entry.preview, previews > 0 {
                        previews -= 1
                        picture = await keepPreview(url, row: row, time: entry.time, op: op, client: client)
                    }
                    added.append(OperatorLogNotice(entry: entry, operator: op.name, picture: picture))
                }
            }
        }
        return added
    }

    /// Downloads a preview (`plogCamshot`: no token is sent, none is needed) and keeps it when it
    /// is a JPEG under the cap; otherwise the entry keeps only the URL. Returns the kept file's path.
    private func keepPreview(_ url: String, row: Int64, time: Date, op: OperatorConfig, client: any OperatorService) async -> String? {
        let lower = url.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else { return nil }
        do {
            let response = try await client.preview(url, maxBytes: Self.maxPreviewBytes)
            guard response.status == 200, response.body.starts(with: [0xFF, 0xD8]) else {
                logger.info("operator \(op.name): preview of a log entry not kept (HTTP \(response.status), not a JPEG or empty)")
                return nil
            }
            return try journal.saveOperatorPreview(response.body, row: row, at: time)
        } catch {
            logger.info("operator \(op.name): preview of a log entry not kept: \(error)")
            return nil
        }
    }

    private func fail(_ round: inout Round, _ name: String, kind: String, _ line: String, level: LogLevel = .warning) {
        failing.insert(name)
        var throttle = throttles[name + "\u{0}" + kind] ?? LogThrottle(every: .seconds(3600))
        if let count = throttle.admit() {
            note(&round, count > 1 ? "\(line) (\(count) times since the last line)" : line, level: level)
        }
        throttles[name + "\u{0}" + kind] = throttle
    }

    private func note(_ round: inout Round, _ line: String, level: LogLevel) {
        round.logged.append(line)
        logger.log(level, line)
    }

    static func kindName(_ kind: OperatorError.Kind) -> String {
        switch kind {
        case .notLoggedIn, .unreadableToken: "not_logged_in"
        case .loginExpired: "login_expired"
        case .unreachable: "unreachable"
        case .badAnswer: "bad_answer"
        case .serverFailed: "server_failed"
        case .paymentRequired: "payment_required"
        case .local: "local"
        default: "refused"
        }
    }
}
