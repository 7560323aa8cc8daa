import Foundation
import IntercomBase
import IntercomPhone

/// A forked call at a desk of a site (issue 40): its ring is noted at the site (or refused 480
/// off duty), its answer claims it, and its end names the desk that took it when another did.
/// The call is known by its INVITE's SIP Call-ID, the same at every desk the proxy forked it to.
/// A lone desk (`site` nil), or a call without a Call-ID, goes through none of this.
extension Intercom {
    /// The call rings here: noted at the site. False when this desk is off duty: the caller then
    /// declines the call with 480 (Temporarily Unavailable), which the site journals as such.
    func siteRings(_ session: CallSession) async -> Bool {
        guard let site, let key = session.info.siteKey else { return true }
        let decision = await site.ringing(key, panel: session.panel?.name, caller: session.info.from)
        guard decision == .refuseOffDuty else { return true }
        logger.info("call \(session.info.id) from \(session.name ?? session.info.from) declined 480: this desk is off duty (ctl duty on)")
        return false
    }

    /// This desk answered the call: it claims it, so the other desks name it when their legs end.
    func siteAnswered(_ id: CallID) async {
        guard let site, let key = calls[id]?.info.siteKey else { return }
        guard let winner = await site.answered(key) else { return }
        if await winner.desk != site.settings.desk {
            logger.warning("call \(id): answered here, but desk \(winner.desk) claimed it first (\(winner.kind.rawValue))")
        }
    }

    /// The call's leg here ended (`reason` as `call_ended` says it): told to the site. Answered
    /// elsewhere, the desk that took it, waited for up to `[site]`'s claim wait (the proxy's CANCEL
    /// may come before that desk's claim lands); nil when none came or the store is down.
    func siteEnded(_ session: CallSession, reason: CallEndReason) async -> SiteDeskRef? {
        guard let site, let key = session.info.siteKey else { return nil }
        var taker: SiteDeskRef?
        if reason == .answeredElsewhere, let claim = await site.claimant(key) {
            taker = SiteDeskRef(desk: claim.desk, operatorName: claim.operatorName)
        }
        await site.ended(key, reason: reason.rawValue)
        await site.forget(key)
        return taker
    }
}

extension CallInfo {
    /// How the desks of a site name this call: its INVITE's Call-ID (incoming calls only).
    var siteKey: SiteCallKey? {
        guard direction == .incoming, let sipCallID, !sipCallID.isEmpty else { return nil }
        return SiteCallKey(sipCallID)
    }
}
