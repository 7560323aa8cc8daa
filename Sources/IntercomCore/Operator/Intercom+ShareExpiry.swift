import Foundation
import IntercomBase
import IntercomOperator

/// The daemon's keeper of shared-access ends, on the engine's seams: the operators' APIs as the
/// engine reaches them (fakes in tests), its clock and its event bus.
extension Intercom {
    /// A keeper of the ends in `store`; the daemon runs it (`ShareExpiryKeeper.run`) beside the control socket.
    public nonisolated func shareExpiryKeeper(store: ShareExpiryStore) -> ShareExpiryKeeper {
        let bus = bus
        return ShareExpiryKeeper(store: store, clock: clock, logger: logger, client: { [weak self] name in
            guard let self else { throw IntercomError.notStarted }
            return try await self.operatorService(name)
        }, publish: { bus.publish($0) })
    }

    /// The configured operator `name`'s API with its stored token (as the config is now: SIGHUP may
    /// have removed it, and then the keeper says so and tries again later).
    func operatorService(_ name: String) throws -> any OperatorService {
        guard let op = config.operator(named: name) else {
            throw IntercomError.unknownTarget("no [operator \(name)] in the config any more")
        }
        return try services.operatorClient(op, try operatorTokens.token(op.name), operatorTokens)
    }
}
