import Foundation
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import IntercomOperator
import IntercomTestSupport
import Testing

/// The operator log sync on the engine's seams: a fake operator and the manual clock. Its rounds
/// come every `log_interval` of the engine's clock, `syncNow()` wakes one at once, the first
/// copy is history and a later entry is news (issue 39: no real sleeps, no simulator).
@Suite(.removesTestFolders) struct OperatorLogSyncPolicyTests {
    static let interval = 600

    /// The sync reaches only the operators' APIs and the clock.
    enum Unused: Error { case phone, panel }

    static let previewURL = "https://operator.invalid/plog/new.jpg"
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 7, count: 100) + Data([0xFF, 0xD9])

    static func entry(_ uuid: String, at time: String, event: PlogEvent = .openedByApp, preview: String? = nil) -> PlogEntry? {
        var fields: [(String, JSONValue)] = [("date", .string(time)), ("uuid", .string(uuid)), ("event", .integer(event.rawValue)),
                                             ("mechanizmaDescription", .string("Entrance"))]
        if let preview { fields.append(("preview", .string(preview))) }
        return PlogEntry(json: .object(fields), timeZone: TimeZone(identifier: "UTC") ?? .current)
    }

    @Test func roundsComeEveryLogIntervalOfTheEnginesClockAndSyncNowWakesOne() async throws {
        let folder = try TestDirectory(prefix: "intercom-log-sync")
        let tokens = OperatorTokenStore(directory: folder.path + "/operators")
        try tokens.save(OperatorCredentials(deviceId: "device", token: "token"), for: "home")
        var config = OperatorConfig(name: "home", api: "https://operator.invalid/api", phone: "79123456781")
        config.logInterval = Double(Self.interval)
        let op = config
        let api = FakeOperator()
        api.flats("home", [OperatorFlat(flatId: "7", address: "Home 1", hasPlog: true)])
        api.log("home", flat: "7", day: "2026-01-01", [try #require(Self.entry("old", at: "2026-01-01 00:00:00"))])
        api.unread("home", 1)
        let clock = ManualClock()
        let services = IntercomServices(startPhone: { _, _ in throw Unused.phone },
                                        panel: { _ in throw Unused.panel },
                                        operatorClient: { config, _, _ in api.client(config) }, video: FakeVideo(), clock: clock)
        let (eventStream, eventSink) = AsyncStream<IntercomEvent>.makeStream()
        let (countStream, countSink) = AsyncStream<Int>.makeStream()
        let events = EventRecorder(eventStream)
        let counts = EventRecorder(countStream)
        let journal = try Journal(directory: folder.path + "/journal")
        let sync = OperatorLogSync(journal: journal, tokens: tokens, logger: .silent, publish: { eventSink.yield($0) }, services: services)
        await sync.observeUnread { _, count in countSink.yield(count) }
        let running = Task { await sync.run(operators: { [op] }) }
        try await withCleanup({ running.cancel(); await running.value }) {
            _ = try await counts.wait("the first round's count") { $0 == 1 ? $0 : nil }
            try await clock.waitForSleeper(endingIn: .seconds(Self.interval))
            #expect(try journal.operatorSyncTimes()["home"] == ManualClock.epoch, "the round is dated by the engine's clock")
            #expect(!events.all.contains { if case .operatorEvent = $0.kind { true } else { false } }, "history is no news")

            api.log("home", flat: "7", day: "2026-01-01", [try #require(Self.entry("new", at: "2026-01-01 00:05:00", preview: Self.previewURL))])
            api.preview(Self.previewURL, Self.jpeg)
            api.unread("home", 2)
            clock.advance(by: .seconds(Self.interval - 1))
            #expect(counts.all == [1], "no round before log_interval has passed")
            clock.advance(by: .seconds(1))
            let notice = try await events.wait("the new entry") { event -> OperatorLogNotice? in
                if case .operatorEvent(let n) = event.kind { n } else { nil }
            }
            #expect(notice.operatorName == "home" && notice.kind == "opened_by_app", "\(notice)")
            #expect(notice.picture.flatMap { FileManager.default.contents(atPath: $0) } == Self.jpeg, "the preview is kept from the operator's seam")
            _ = try await counts.wait("two unread") { $0 == 2 ? $0 : nil }

            try await clock.waitForSleeper(endingIn: .seconds(Self.interval))
            api.unread("home", 0)
            await sync.syncNow()
            _ = try await counts.wait("the fall to 0, woken by syncNow") { $0 == 0 ? $0 : nil }
            #expect(counts.all == [1, 2, 0])
            #expect(try journal.entries().filter { $0.kind == .operatorEvent }.count == 2)
        }
    }
}
