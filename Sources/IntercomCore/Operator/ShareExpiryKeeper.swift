import Foundation
import IntercomBase
import IntercomOperator

/// The ends of shared access that the operator's server will not keep (SmartYard's
/// `address/access` ignores `expire` when adding a guest): `intercom share --until` hands each to
/// the daemon (`share_expiry` on the control socket), which keeps it in the state folder
/// (`ShareExpiryStore`, so it survives a restart) and, when it is due, takes the guest's access
/// back through the operator's API as `intercom share --remove` does, checks the flat's list, and
/// publishes `share_expired` (journaled). A removal that fails (the operator unreachable, the login
/// gone) is kept and tried again, a minute later and then less often, up to once an hour; the
/// server's "no right to delete" (only the flat's owner may remove a guest) is final: said once, dropped.
public actor ShareExpiryKeeper {
    /// The operator's API for the operator of that name (the daemon's: its config and stored token).
    public typealias ClientSource = @Sendable (String) async throws -> any OperatorService

    private let store: ShareExpiryStore
    private let clock: any EngineClock
    private let logger: Logger
    private let client: ClientSource
    private let publish: @Sendable (IntercomEvent) -> Void
    private var expiries: [ShareExpiry]
    /// Failed removals: how many times in a row, and when the next try is due.
    private var retries: [String: (count: Int, at: Date)] = [:]
    /// The wait for the next due end, cancelled by a change.
    private var sleeper: Task<Void, Never>?
    private var changed = false

    /// The first retry after a failed removal; each next one waits twice as long, at most `maxRetryDelay`.
    static let retryDelay: TimeInterval = 60
    static let maxRetryDelay: TimeInterval = 3600

    public init(store: ShareExpiryStore, clock: any EngineClock, logger: Logger, client: @escaping ClientSource,
                publish: @escaping @Sendable (IntercomEvent) -> Void) {
        self.store = store
        self.clock = clock
        self.logger = logger
        self.client = client
        self.publish = publish
        let loaded = store.load()
        if let problem = loaded.problem { logger.warning("share expiries: \(problem)") }
        expiries = loaded.expiries
    }

    /// The ends kept, soonest first.
    public var kept: [ShareExpiry] { expiries.sorted { $0.until < $1.until } }

    /// Keeps an end (replacing the guest's earlier one) or forgets one; saved before it returns, so
    /// `intercom share` never says the daemon keeps an end it could not write down.
    @discardableResult
    public func apply(_ change: ShareExpiry.Change) throws(StateDirectoryError) -> JSONValue {
        var next = expiries
        let result: JSONValue
        switch change {
        case .keep(let expiry):
            next.removeAll { $0.sameGuest(expiry) }
            next.append(expiry)
            result = .object(expiry.fields)
        case .forget(let name, let flat, let phone):
            let before = next.count
            next.removeAll { $0.sameGuest(operatorName: name, flatId: flat, phone: phone) }
            result = .object(change.fields + [("forgotten", .bool(next.count < before))])
        }
        try store.save(next) { logger.notice("share expiries: \($0)") }
        expiries = next
        if case .keep(let expiry) = change { retries[Self.key(expiry)] = nil }
        changed = true
        sleeper?.cancel()
        return result
    }

    /// Takes back every access that is due, then waits for the next end (or a change), until cancelled.
    public func run() async {
        while !Task.isCancelled {
            changed = false
            await expireDue()
            guard !changed else { continue }
            let now = clock.date
            let next = expiries.map { retries[Self.key($0)]?.at ?? $0.until }.min()
            // Nothing kept: a day's wait, ended early by `apply`.
            let seconds = next.map { max(0, $0.timeIntervalSince(now)) } ?? 86400
            let clock = clock
            let wait = Task { _ = try? await clock.sleep(seconds: seconds) }
            sleeper = wait
            await withTaskCancellationHandler { await wait.value } onCancel: { wait.cancel() }
            sleeper = nil
        }
    }

    /// One pass: each end whose time (or retry) has come, in order. Returns how many accesses ended.
    @discardableResult
    public func expireDue() async -> Int {
        var ended = 0
        let now = clock.date
        let due = expiries.filter { (retries[Self.key($0)]?.at ?? $0.until) <= now }.sorted { $0.until < $1.until }
        for expiry in due {
            do {
                try await remove(expiry)
            } catch let error as OperatorError where error.isOwnerOnlyRefusal {
                // Final: only the flat's owner may take a guest back, and asking hourly would not change that.
                logger.warning("operator \(expiry.operatorName): access of +\(expiry.phone) to flat \(expiry.flatId) was due to end "
                               + "at \(RFC3339.string(expiry.until)) but only the flat's owner can take a guest back (the operator: "
                               + "\"\(OperatorError.noRightToDelete)\"); this intercom stops trying: ask the owner to remove it")
                forget(expiry)
                continue
            } catch {
                let key = Self.key(expiry)
                let count = (retries[key]?.count ?? 0) + 1
                let delay = min(Self.maxRetryDelay, Self.retryDelay * pow(2, Double(count - 1)))
                retries[key] = (count, clock.date.addingTimeInterval(delay))
                logger.warning("operator \(expiry.operatorName): access of +\(expiry.phone) to flat \(expiry.flatId) was due to end "
                               + "at \(RFC3339.string(expiry.until)) but was not taken back: \(error); trying again in \(Int(delay)) s")
                continue
            }
            ended += 1
            // Replaced or forgotten while the removal ran: the newer wish stays.
            guard forget(expiry) else { continue }
            logger.notice("operator \(expiry.operatorName): access of +\(expiry.phone) to flat \(expiry.flatId) ended "
                          + "(kept by this intercom until \(RFC3339.string(expiry.until)))")
            publish(IntercomEvent(.shareExpired(expiry), time: clock.date))
        }
        return ended
    }

    /// Drops an end that is over (done, or refused for good); false when it was replaced or forgotten meanwhile.
    @discardableResult
    private func forget(_ expiry: ShareExpiry) -> Bool {
        guard expiries.contains(expiry) else { return false }
        let rest = expiries.filter { $0 != expiry }
        do {
            try store.save(rest) { logger.notice("share expiries: \($0)") }
        } catch {
            // Kept in the file: the next start tries an end already over once more, which does no harm.
            logger.warning("share expiries: \(error)")
        }
        expiries = rest
        retries[Self.key(expiry)] = nil
        return true
    }

    /// As `intercom share --remove`: the removal, then the flat's list read back.
    private func remove(_ expiry: ShareExpiry) async throws {
        let api = try await client(expiry.operatorName)
        try await api.removeGuest(flatId: expiry.flatId, phone: expiry.phone)
        if try await api.hasGuest(flatId: expiry.flatId, phone: expiry.phone) {
            throw IntercomError.refused("the operator accepted the removal, but the phone is still listed for the flat")
        }
    }

    private static func key(_ e: ShareExpiry) -> String { "\(e.operatorName.lowercased())\u{0}\(e.flatId)\u{0}\(e.phone)" }
}
