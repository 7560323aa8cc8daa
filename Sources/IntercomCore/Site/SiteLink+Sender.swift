import Foundation
import IntercomBase

/// The link's sender: a write the desk makes is kept in the outbox and its caller goes on at once,
/// so a ring, an answer, a switch or a journal entry never waits for the store (a frozen one takes
/// `[site] timeout` to fail a request). One task of `run()` sends the outbox oldest first, woken by
/// each write kept; it stops at the first failure (the outage: `lost`), the heartbeat's recovery
/// replays what is left, and it goes on from there.
extension SiteLink {
    /// Keeps `write` after the others in the outbox and wakes the sender; returns before the store has it.
    func send(_ write: SiteWrite) {
        do { try outbox.keep(write) } catch {
            logger.error("site: cannot keep a write for the site in the outbox file (\(error)); it is kept in memory only")
        }
        outboxChanges.changed()
    }

    /// Returns once every write kept so far reached the store, or the store failed (they wait in
    /// the outbox for its return), or the link stopped. The journal's side waits here before it
    /// reads a call's row back; tests wait here instead of sleeping.
    public func flushed() async {
        while unreachable == nil, !senderEnded, !outbox.isEmpty, !Task.isCancelled {
            let seen = outboxChanges.version
            await outboxChanges.next(after: seen)
        }
    }

    /// The sender, a task of `run()`: drains the outbox whenever it holds something and the store
    /// answers. When the link stops it tries once more, so a stopping desk's last writes (its
    /// calls' ends) reach the site now rather than at its next start.
    func sendKept() async {
        defer {
            senderEnded = true
            outboxChanges.changed()
        }
        while !Task.isCancelled {
            let seen = outboxChanges.version
            if unreachable == nil, !outbox.isEmpty { _ = await drain(untilLost: true) }
            await outboxChanges.next(after: seen)
        }
        if unreachable == nil, !outbox.isEmpty { _ = await drain(untilLost: true) }
    }

    /// Sends the outbox, oldest first, each write dropped once the store took it. One drain at a
    /// time: another waits for it to end, then sends what is left, so the order holds. The count
    /// sent; nil when the store failed (the rest waits for the heartbeat's recovery). `untilLost`:
    /// the sender's, which also stops when the heartbeat found the store gone.
    func drain(untilLost: Bool = false) async -> Int? {
        while draining {
            guard !Task.isCancelled else { return nil }
            let seen = outboxChanges.version
            await outboxChanges.next(after: seen)
        }
        draining = true
        var sent = 0
        defer {
            draining = false
            // Once per drain, not once a write (a replay of a thousand writes is one rewrite).
            if sent > 0 {
                do { try outbox.save() } catch {
                    logger.error("site: cannot rewrite the outbox file (\(error)); a restart sends some writes again, which adds nothing twice")
                }
            }
            outboxChanges.changed()
        }
        while let write = outbox.pending.first {
            if untilLost, unreachable != nil { return nil }
            do {
                let row = try await write.send(to: store)
                if case .claim(_, let claim) = write { claimed(claim, row: row) }
            } catch {
                lost(error)
                return nil
            }
            outbox.forget(1)
            sent += 1
        }
        return sent
    }

    /// A claim of this desk's reached the store: when another desk's came first, the log says so
    /// (the call goes on here; the site names the first).
    private func claimed(_ claim: SiteCallClaim, row: SiteCall?) {
        guard claim.desk == settings.desk, let row, let winner = row.claim, winner.desk != settings.desk else { return }
        logger.warning("site: call \(row.key) was \(claim.kind.rawValue) here, but desk \(winner.desk) claimed it first (\(winner.kind.rawValue))")
    }
}
