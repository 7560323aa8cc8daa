import Foundation
import IntercomBase
import IntercomCore
import IntercomDaemon
import IntercomPostgres
import IntercomSite

/// The daemon's desk in its site (`[site]`, docs/SITE.md): the PostgreSQL store opened (its schema
/// migrated), and this desk's `SiteLink` run by the engine until the daemon stops. Nothing without `[site]`.
enum SiteFrontEnd {
    static func make(environment: [String: String]) -> @Sendable (Intercom) async throws -> (any HostFace)? {
        { intercom in
            guard let config = await intercom.config.site else { return nil }
            let logger = intercom.logger
            // A password file others can read, or plain text to another machine: the daemon does not start.
            let target = try PostgresTarget(settings: config)
            let store: PostgresSiteStore
            do {
                store = try await PostgresSiteStore.open(target: target)
            } catch let error as PostgresError where error.kind == .connect || error.kind == .lost {
                // The store down at start is an outage like any other: the desk goes on alone.
                logger.warning("site: \(error.message); this desk starts alone and sends what it keeps when the store answers")
                store = PostgresSiteStore(target: target)
                await store.startFeed()
            }
            let folder = StateDirectory.path(environment: environment)
            let outbox: SiteOutbox
            do {
                try StateDirectory.ensure(folder) { logger.notice($0) }
                outbox = try SiteOutbox(path: SiteOutbox.path(stateDirectory: folder))
            } catch {
                // The desk still joins; an outage then lasts only as long as this process.
                logger.warning("site: \(error); what this desk keeps for the site during an outage will not outlive a restart")
                outbox = try SiteOutbox(path: nil)
            }
            if outbox.unreadable > 0 { logger.warning("site: \(outbox.unreadable) lines of the outbox could not be read back; they are not sent") }
            let settings = SiteSettings(desk: config.deskName, operatorName: config.operator,
                                        escalateAfter: config.escalateAfter, escalateTo: config.escalateTo)
            let link = SiteLink(store: store, settings: settings, outbox: outbox, clock: intercom.clock, logger: logger)
            logger.notice("site: desk \(settings.desk) joins the site at \(config.url)")
            return SiteFace(intercom: intercom, store: store, link: link)
        }
    }
}

/// The link's life as the host's stage: joined before the engine starts, stopped (and the store closed) after it.
actor SiteFace: HostFace {
    private let intercom: Intercom
    private let store: PostgresSiteStore
    private let link: SiteLink
    private var running: Task<Void, Never>?

    init(intercom: Intercom, store: PostgresSiteStore, link: SiteLink) {
        (self.intercom, self.store, self.link) = (intercom, store, link)
    }

    func start() async {
        let (intercom, link) = (intercom, link)
        await intercom.joinSite(link)
        running = Task { await intercom.runSite(link) }
    }

    func stop() async {
        running?.cancel()
        await running?.value
        running = nil
        await store.close()
    }
}
