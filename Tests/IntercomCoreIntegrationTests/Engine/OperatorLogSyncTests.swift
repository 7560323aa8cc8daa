import Foundation
import IntercomBase
import IntercomCore
import IntercomOperator
import IntercomPhoneTestSupport
import IntercomSimulator
import IntercomTestSupport
import Testing

/// The daemon's copy of an operator's event log, against an in-process `SimulatedOperator` over
/// real HTTP: a door opened through the operator appears once, a second round adds nothing, and a
/// revoked login is logged with the hint while the copy stays.
@Suite(.removesTestFolders) struct OperatorLogSyncTests {
    @Test func anOpeningIsCopiedOnceAndARevokedLoginKeepsTheCopy() async throws {
        let simulator = try SimulatedOperator.start(SimulatedOperatorOptions())
        try await withCleanup({ simulator.stop() }) {
            let op = OperatorConfig(name: "home", api: simulator.baseURL, phone: "79123456781")
            let tokens = OperatorTokenStore(directory: PhoneTestSupport.tempDirectory("operator-tokens") + "/operators")
            let login = try OperatorClient(config: op, token: nil)
            _ = try await login.requestCode(phone: "79123456781", deviceId: "test-device", method: .sms)
            let grant = try await login.confirmCode(phone: "79123456781", code: "1001", deviceId: "test-device")
            try tokens.save(OperatorCredentials(deviceId: "test-device", token: grant.token), for: "home")
            // With the store, as the daemon opens: the opening's log entry teaches the server's zone.
            let client = try OperatorClient(config: op, token: grant.token, store: tokens)
            try await client.openDoor(domophoneId: "1", doorId: 0)

            let journal = try Journal(directory: PhoneTestSupport.tempDirectory("journal"))
            let sync = OperatorLogSync(journal: journal, tokens: tokens, logger: .silent)
            let first = await sync.sync([op])
            #expect(first.added >= 1 && first.logged.isEmpty, "\(first.logged)")
            let copied = try journal.entries().filter { $0.kind == .operatorEvent }
            #expect(copied.count == first.added)
            let opened = try #require(copied.last { $0.event == "opened_by_app" }, "\(copied)")
            #expect(opened.operatorName == "home" && opened.uuid != nil)
            // Written in the simulator's PHP zone (UTC), not the Moscow of ext/options: the sync learned
            // the zone from this entry, so the opening reads as just now.
            #expect(abs(opened.time.timeIntervalSinceNow) < 120, "\(opened.time)")
            // The simulator's entries have a preview: downloaded beside the calls' pictures.
            let picture = try #require(opened.firstPicture)
            #expect(FileManager.default.fileExists(atPath: picture))
            #expect(opened.pictureURL?.contains("plogCamshot") == true)
            #expect(try journal.operatorSyncTimes()["home"] != nil)

            let second = await sync.sync([op])
            #expect(second.added == 0)
            #expect(try journal.entries().filter { $0.kind == .operatorEvent }.count == copied.count)

            simulator.revokeAllTokens()
            let revoked = await sync.sync([op])
            #expect(revoked.added == 0)
            #expect(revoked.logged.count == 1 && revoked.logged.first?.contains("run 'intercom login home'") == true,
                    "\(revoked.logged)")
            // Once per kind: the next failing round says nothing more.
            #expect(await sync.sync([op]).logged.isEmpty)
            #expect(try journal.entries().filter { $0.kind == .operatorEvent }.count == copied.count)

            // Logged in again: the next round works and says so once.
            _ = try await login.requestCode(phone: "79123456781", deviceId: "test-device", method: .sms)
            let again = try await login.confirmCode(phone: "79123456781", code: "1001", deviceId: "test-device")
            try tokens.save(OperatorCredentials(deviceId: "test-device", token: again.token), for: "home")
            let back = await sync.sync([op])
            #expect(back.added == 0 && back.logged.count == 1 && back.logged.first?.contains("again") == true, "\(back.logged)")
        }
    }

    /// What the daemon is told: the first copy is history (no `operator_event`), a later entry is one
    /// event with its door, `who`, detail and kept picture; the unread count is an `operator_message`
    /// when it grows (the first count too) and reaches the observers on every change; `syncNow()`
    /// wakes a round that `log_interval` would hold back for a day.
    @Test func newEntriesAndMoreUnreadAreEventsAndSyncNowWakesTheRound() async throws {
        var options = SimulatedOperatorOptions(cameras: false)
        options.messages = ["welcome"]
        let simulator = try SimulatedOperator.start(options)
        try await withCleanup({ simulator.stop() }) {
            var op = OperatorConfig(name: "home", api: simulator.baseURL, phone: "79123456781")
            op.logInterval = 86400
            let tokens = OperatorTokenStore(directory: PhoneTestSupport.tempDirectory("operator-tokens") + "/operators")
            let login = try OperatorClient(config: op, token: nil)
            _ = try await login.requestCode(phone: "79123456781", deviceId: "test-device", method: .sms)
            let grant = try await login.confirmCode(phone: "79123456781", code: "1001", deviceId: "test-device")
            try tokens.save(OperatorCredentials(deviceId: "test-device", token: grant.token), for: "home")
            simulator.recordCall(answered: true)

            let (eventStream, eventSink) = AsyncStream<IntercomEvent>.makeStream()
            let (countStream, countSink) = AsyncStream<Int>.makeStream()
            let events = EventRecorder(eventStream)
            let counts = EventRecorder(countStream)
            let journal = try Journal(directory: PhoneTestSupport.tempDirectory("journal"))
            let sync = OperatorLogSync(journal: journal, tokens: tokens, logger: .silent, publish: { eventSink.yield($0) })
            await sync.observeUnread { _, count in countSink.yield(count) }
            let operators: [OperatorConfig] = [op]
            let running = Task { await sync.run(operators: { operators }) }
            try await withCleanup({ running.cancel(); await running.value }) {
                let first = try await events.wait("the first unread count") { event -> Int? in
                    if case .operatorMessage(let name, let unread) = event.kind, name == "home" { unread } else { nil }
                }
                #expect(first == 1)
                #expect(!events.all.contains { if case .operatorEvent = $0.kind { true } else { false } }, "history is no news")

                simulator.recordRecognition(plate: "A123BC")
                simulator.sendMessage("second")
                await sync.syncNow()
                let notice = try await events.wait("the plate's entry") { event -> OperatorLogNotice? in
                    if case .operatorEvent(let n) = event.kind { n } else { nil }
                }
                #expect(notice.operatorName == "home" && notice.kind == "opened_by_plate" && notice.door == "home:1:0"
                        && notice.camera == "home:cam:1" && notice.who == "plate" && notice.detail == "plate A123BC", "\(notice)")
                #expect(notice.picture.map { FileManager.default.fileExists(atPath: $0) } == true, "\(notice)")
                _ = try await events.wait("two unread") { event -> Int? in
                    if case .operatorMessage(_, let unread) = event.kind, unread == 2 { unread } else { nil }
                }
                // Read elsewhere: a fall is no event, but the observers hear it.
                let reader = try OperatorClient(config: op, token: grant.token)
                _ = try await reader.inbox()
                await sync.syncNow()
                _ = try await counts.wait("the fall to 0") { $0 == 0 ? $0 : nil }
                #expect(counts.all == [1, 2, 0])
                #expect(events.all.filter { if case .operatorMessage = $0.kind { true } else { false } }.count == 2)
                #expect(await sync.unread["home"] == 0)
            }
        }
    }
}
