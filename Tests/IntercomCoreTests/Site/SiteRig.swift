import Foundation
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import Testing

/// Desks on one fake site store and one manual clock: each a `SiteLink` running, with a ledger of
/// what it told its engine.
struct SiteRig {
    struct Desk {
        let link: SiteLink
        let events: Ledger<SiteLink.Event>
    }

    let store = FakeSiteStore()
    let clock = ManualClock()
    let desks: [String: Desk]

    init(_ settings: [SiteSettings], outboxes: [String: SiteOutbox] = [:]) throws {
        var desks: [String: Desk] = [:]
        for desk in settings {
            let outbox = try outboxes[desk.desk] ?? SiteOutbox(path: nil)
            desks[desk.desk] = Desk(link: SiteLink(store: store, settings: desk, outbox: outbox, clock: clock, logger: .silent),
                                    events: Ledger())
        }
        self.desks = desks
    }

    init(_ names: String...) throws { try self.init(names.map { SiteSettings(desk: $0) }) }

    subscript(_ name: String) -> SiteLink { desks[name]!.link }
    func events(_ name: String) -> Ledger<SiteLink.Event> { desks[name]!.events }

    /// Runs every desk's link (and a reader of its events) around `body`, then stops them and
    /// waits for them to end. `beats`: returns once every desk's first heartbeat reached the store
    /// and each waits for its next one.
    func run(_ names: [String]? = nil, _ body: () async throws -> Void) async throws {
        let running = (names ?? Array(desks.keys)).compactMap { desks[$0] }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for desk in running {
                group.addTask { await desk.link.run() }
                group.addTask { for await event in desk.link.events { desk.events.append(event) } }
            }
            do {
                try await clock.waitForSleepers(running.count)
                try await body()
            } catch {
                group.cancelAll()
                throw error
            }
            group.cancelAll()
        }
    }
}

extension SiteLink.Event {
    var switchChange: SiteSwitchChange? { if case .switchChanged(let change) = self { change } else { nil } }
    var isUnreachable: Bool { if case .unreachable = self { true } else { false } }
    var replayed: Int? { if case .reachable(let count) = self { count } else { nil } }
}

extension SiteRig {
    /// A desk's journal entry as its journal would hand it over (built from its JSON: the
    /// entry's memberwise init is IntercomBase's own).
    static func journalEntry(_ kind: JournalEntry.Kind = .call, outcome: String?, answeredBy: String? = nil,
                             at time: Date = ManualClock.epoch) throws -> JournalEntry {
        var fields: [(String, JSONValue)] = [("kind", .string(kind.rawValue)), ("time", .string(RFC3339.string(time))),
                                             ("panel", .string("entrance"))]
        switch kind {
        case .call:
            fields += [("call", .string("c1")), ("from", .string("1001")), ("ended", .string(RFC3339.string(time))),
                       ("outcome", .optional(outcome)), ("duration_s", .number(3)), ("answered_by", .optional(answeredBy)),
                       ("first_picture", .string("ring-1.jpg"))]
        default:
            fields += [("door", .string("main")), ("method", .string("http")), ("ok", .bool(true))]
        }
        return try #require(JournalEntry(json: .object(fields)))
    }
}
