import Foundation
import IntercomBase

/// A forked call as the desks share it: each desk notes its ring and its end; the desk that answers
/// (or escalates) claims it, and the first claim wins; the others name that desk when their leg ends.
extension SiteLink {
    /// What this desk does with a forked ring.
    public enum RingDecision: Sendable, Equatable {
        case ring
        /// Off duty: refuse with 480 (Temporarily Unavailable), journaled as such.
        case refuseOffDuty
    }

    /// A forked ring reached this desk: noted at the site unless the desk is off duty. Never waits
    /// for the store (the notes go through the outbox).
    public func ringing(_ key: SiteCallKey, panel: String?, caller: String?) -> RingDecision {
        send(.ringing(key, panel: panel, caller: caller, desk: settings.desk, at: clock.date))
        guard settings.onDuty else {
            send(.ended(key, desk: settings.desk, reason: Self.refusedOffDuty, at: clock.date))
            return .refuseOffDuty
        }
        return .ring
    }

    /// The reason an off-duty desk's leg ends with.
    public static let refusedOffDuty = "refused_off_duty"

    /// This desk answered: it claims the call, through the outbox, so the answer never waits for the
    /// store (with the store frozen, `ctl answer` replies at once). The first claim wins at the site;
    /// when another desk's came first, the sender says so in the log, and the call goes on here.
    public func answered(_ key: SiteCallKey) {
        currentCall = key
        send(.claim(key, SiteCallClaim(kind: .answered, desk: settings.desk, operatorName: settings.operatorName, at: clock.date)))
    }

    /// The ring went unanswered for `escalateAfter`: claims it as escalated. True when this desk
    /// won the claim and must transfer the call to `escalateTo`; false when another desk took it
    /// first. With the store down every desk is alone, so it escalates its own ring.
    public func escalate(_ key: SiteCallKey) async -> Bool {
        guard let target = settings.escalateTo else { return false }
        let claim = SiteCallClaim(kind: .escalated, desk: settings.desk, operatorName: settings.operatorName,
                                  target: target, at: clock.date)
        guard let winner = await claimNow(key, claim) else { return true }
        return winner.desk == settings.desk && winner.kind == .escalated
    }

    /// Owned by the ringing call's session and cancelled when the call is answered or ends: waits
    /// `escalateAfter`, then escalates unless a desk took the call meanwhile. The target to
    /// transfer the call to (blind) when this desk won the escalation, else nil.
    public func escalationDue(_ key: SiteCallKey) async -> String? {
        guard let after = settings.escalateAfter, let target = settings.escalateTo else { return nil }
        do { try await clock.sleep(for: after) } catch { return nil }
        guard claims[key] == nil else { return nil }
        return await escalate(key) ? target : nil
    }

    /// An escalation needs to know who won: its claim goes after this desk's earlier writes (the
    /// ring) through the outbox, then the winner is read back. Bounded by `[site] timeout`: a store
    /// that does not answer fails the claim (nil), and the desk escalates alone. Runs in the ringing
    /// call's own task, never on the phone's events.
    private func claimNow(_ key: SiteCallKey, _ claim: SiteCallClaim) async -> SiteCallClaim? {
        send(.claim(key, claim))
        await flushed()
        guard unreachable == nil else { return nil }
        do {
            let winner = try await store.call(key)?.claim
            if let winner { claims[key] = winner }
            return winner
        } catch {
            lost(error)
            return nil
        }
    }

    /// This desk's leg ended.
    public func ended(_ key: SiteCallKey, reason: String) {
        if currentCall == key { currentCall = nil }
        send(.ended(key, desk: settings.desk, reason: reason, at: clock.date))
    }

    /// Who took a call this desk's leg lost (answered elsewhere): the claim, waited for up to
    /// `claimWait`, since the proxy's CANCEL may come before the other desk's claim lands. Nil
    /// when none came in time or the store is down (the call then ends unnamed, as on a lone desk).
    public func claimant(_ key: SiteCallKey) async -> SiteCallClaim? {
        // Counted in polls rather than read off the clock: the engine's clock is an existential.
        let polls = max(0, Int((settings.claimWait / settings.claimPoll).rounded(.up)))
        for poll in 0...polls {
            if let claim = claims[key] { return claim }
            guard unreachable == nil else { return nil }
            do {
                if let claim = try await store.call(key)?.claim {
                    claims[key] = claim
                    return claim
                }
            } catch {
                lost(error)
                return nil
            }
            guard poll < polls else { break }
            do { try await clock.sleep(for: settings.claimPoll) } catch { return nil }
        }
        return nil
    }

    /// Forgets the claims of calls that ended here (the cache is for the wait above only).
    public func forget(_ key: SiteCallKey) { claims[key] = nil }

    /// The site's calls in progress (`ctl status`, the screens); empty while the store is down.
    public func activeCalls() async -> [SiteCall] {
        guard unreachable == nil else { return [] }
        do { return try await store.activeCalls() } catch {
            lost(error)
            return []
        }
    }
}
