import Foundation
import IntercomBase
import IntercomCore
import IntercomPostgres
import IntercomSite
import IntercomTestSupport
import Testing

/// A desk's link on a real PostgreSQL that freezes (SIGSTOP: connected, silent): a write returns at
/// once, kept in the outbox; a request that needs the store's answer (an escalation's claim: who won)
/// fails at the `[site] timeout` deadline and the desk carries on alone; thawed, the claim reaches
/// the site with the writes before it, in order.
@Suite(.serialized) struct SiteLinkFrozenStoreTests {
    @Test func aWriteReturnsAtOnceAndAnEscalationClaimFailsAtItsDeadline() async throws {
        try await SiteTestRig.with { rig in
            let store = try await PostgresSiteStore.open(target: PostgresTarget(url: rig.server.socketURL(rig.database),
                                                                                timeout: .seconds(1)))
            rig.onCleanup { await store.close() }
            let settings = SiteSettings(desk: "A", escalateAfter: .seconds(30), escalateTo: "sip:guard@127.0.0.1")
            let link = SiteLink(store: store, settings: settings, outbox: try SiteOutbox(path: nil), clock: SystemClock(),
                                logger: .silent)
            let key = SiteCallKey("frozen-1@127.0.0.1")
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await link.run() }
                do {
                    #expect(await link.ringing(key, panel: "entrance", caller: "1001") == .ring)
                    await link.flushed()
                    try rig.server.freeze()
                    let asked = ContinuousClock.now
                    await link.publish(panel: "entrance", kind: .calls, value: "off")
                    let wrote = ContinuousClock.now - asked
                    let alone = await link.escalate(key)
                    let claimed = ContinuousClock.now - asked
                    print("site: with the store frozen a write returned in \(wrote), an escalation's claim failed after \(claimed)")
                    #expect(wrote < .milliseconds(200), "a write waited \(wrote) for the frozen store")
                    #expect(alone, "with the store frozen the desk escalates its own ring")
                    #expect(claimed >= .milliseconds(900) && claimed < .seconds(3), "the claim failed after \(claimed) (deadline 1 s)")
                    #expect(await link.unreachable != nil)
                    rig.server.thaw()
                    try await TestPatience.poll("the escalation's claim at the site once the store answers") {
                        (try? await store.call(key))?.claim?.kind == .escalated
                    }
                    #expect(try await store.switches().map(\.value) == ["off"], "the switch made before it is there too")
                } catch {
                    rig.server.thaw()
                    group.cancelAll()
                    throw error
                }
                group.cancelAll()
            }
        }
    }
}
