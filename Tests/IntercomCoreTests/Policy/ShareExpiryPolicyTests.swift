import Foundation
import IntercomBase
import IntercomDaemon
import IntercomCore
import IntercomCoreFakes
import IntercomOperator
import IntercomTestSupport
import Testing

/// The ends of shared access the daemon keeps for `intercom share --until` (the operator's server
/// keeps none), on the fake operator and a manual clock: taken back when due and not before, kept
/// across a restart, tried again after a failure, replaced and forgotten; the file stays ours alone.
@Suite struct ShareExpiryPolicyTests {
    static let home = OperatorConfig(name: "home", api: "https://operator.invalid/mobile", phone: "79123456781")
    static let guest = "79990001122"

    /// A rig whose operator lists `guest` in flat 7, and a keeper of ends in a fresh folder, running.
    static func keeper(_ body: (EngineRig, ShareExpiryKeeper, ShareExpiryStore) async throws -> Void) async throws {
        let api = FakeOperator()
        api.guests("home", flat: "7", [guest])
        let folder = try TestDirectory(prefix: "intercom-share")
        let store = ShareExpiryStore(path: folder.path + "/state/share-expiries.json")
        try await EngineRig.run(operators: [home], operatorAPI: api) { rig throws in
            let keeper = rig.intercom.shareExpiryKeeper(store: store)
            let run = Task { await keeper.run() }
            try await withCleanup({ run.cancel(); await run.value }) { try await body(rig, keeper, store) }
        }
    }

    static func end(_ rig: EngineRig, in seconds: TimeInterval) -> ShareExpiry {
        ShareExpiry(operatorName: "home", flatId: "7", phone: guest, until: rig.clock.date.addingTimeInterval(seconds), address: "Main st 1")
    }

    @Test func aDueEndTakesTheAccessBackOnceAndNotBefore() async throws {
        try await Self.keeper { rig, keeper, store throws in
            let expiry = Self.end(rig, in: 1800)
            try await keeper.apply(.keep(expiry))
            #expect(store.load().expiries == [expiry])
            try await rig.clock.waitForSleeper(endingIn: .seconds(1800))
            rig.clock.advance(by: .seconds(1799))
            #expect(rig.operators.removals.all.isEmpty)
            rig.clock.advance(by: .seconds(1))
            let ended = try await rig.event("share_expired") { if case .shareExpired(let e) = $0 { e } else { nil } }
            #expect(ended == expiry)
            #expect(rig.operators.removals.all == ["home:7:\(Self.guest)"])
            #expect(rig.operators.guests("home", flat: "7").isEmpty)
            #expect(await keeper.kept.isEmpty && store.load().expiries.isEmpty)
        }
    }

    @Test func anEndSurvivesARestartAndOneDueWhileDownEndsAtStart() async throws {
        let api = FakeOperator()
        api.guests("home", flat: "7", [Self.guest])
        let folder = try TestDirectory(prefix: "intercom-share")
        let store = ShareExpiryStore(path: folder.path + "/state/share-expiries.json")
        try await EngineRig.run(operators: [Self.home], operatorAPI: api) { rig throws in
            // The daemon that was told, and stopped before the end.
            try await rig.intercom.shareExpiryKeeper(store: store).apply(.keep(Self.end(rig, in: 600)))
            rig.clock.advance(by: .seconds(900))
            let restarted = rig.intercom.shareExpiryKeeper(store: store)
            #expect(await restarted.kept.map(\.phone) == [Self.guest])
            let run = Task { await restarted.run() }
            try await withCleanup({ run.cancel(); await run.value }) {
                _ = try await rig.event("share_expired") { if case .shareExpired(let e) = $0 { e } else { nil } }
                #expect(rig.operators.removals.count == 1 && rig.operators.guests("home", flat: "7").isEmpty)
                #expect(store.load().expiries.isEmpty)
            }
        }
    }

    @Test func aFailedRemovalIsKeptAndTriedAgainLater() async throws {
        try await Self.keeper { rig, keeper, _ throws in
            rig.operators.fail("home", with: .unreachable(detail: "connection refused"))
            try await keeper.apply(.keep(Self.end(rig, in: 60)))
            try await rig.clock.waitForSleeper(endingIn: .seconds(60))
            rig.clock.advance(by: .seconds(60))
            try await rig.operators.removals.wait(for: "the first try") { _ in true }
            // The next try a minute on; the operator works again by then.
            try await rig.clock.waitForSleeper(endingIn: .seconds(60))
            #expect(await keeper.kept.count == 1)
            rig.operators.fail("home", with: nil)
            rig.clock.advance(by: .seconds(60))
            _ = try await rig.event("share_expired") { if case .shareExpired(let e) = $0 { e } else { nil } }
            #expect(rig.operators.removals.count == 2 && rig.operators.guests("home", flat: "7").isEmpty)
        }
    }

    /// SmartYard answers a resident's removal with 200 "Нет прав для удаления" (only the owner may
    /// remove a guest): the keeper drops that end after the one try instead of asking every hour.
    @Test func theOwnerOnlyRefusalIsFinalAndNotRetried() async throws {
        try await Self.keeper { rig, keeper, store throws in
            rig.operators.fail("home", with: .forbidden, serverText: OperatorError.noRightToDelete)
            try await keeper.apply(.keep(Self.end(rig, in: 60)))
            try await rig.clock.waitForSleeper(endingIn: .seconds(60))
            rig.clock.advance(by: .seconds(60))
            try await rig.operators.removals.wait(for: "the one try") { _ in true }
            // Nothing left to wait for but the idle day: no retry is due.
            try await rig.clock.waitForSleeper(endingIn: .seconds(86400))
            #expect(await keeper.kept.isEmpty && store.load().expiries.isEmpty)
            rig.clock.advance(by: .seconds(7200))
            #expect(await keeper.expireDue() == 0)
            #expect(rig.operators.removals.count == 1)
            #expect(rig.events.all.allSatisfy { if case .shareExpired = $0.kind { false } else { true } })
        }
    }

    @Test func aRemovalTheServerIgnoresIsNotCountedAsDone() async throws {
        try await Self.keeper { rig, keeper, _ throws in
            rig.operators.ignoreRemovals("home", true)
            try await keeper.apply(.keep(Self.end(rig, in: 60)))
            try await rig.clock.waitForSleeper(endingIn: .seconds(60))
            rig.clock.advance(by: .seconds(60))
            try await rig.clock.waitForSleeper(endingIn: .seconds(60))
            #expect(rig.operators.removals.count == 1 && rig.operators.guests("home", flat: "7") == [Self.guest])
            #expect(await keeper.kept.count == 1)
            #expect(rig.events.all.allSatisfy { if case .shareExpired = $0.kind { false } else { true } })
        }
    }

    @Test func aNewEndReplacesTheOldAndForgettingEndsNothing() async throws {
        try await Self.keeper { rig, keeper, store throws in
            try await keeper.apply(.keep(Self.end(rig, in: 7200)))
            try await rig.clock.waitForSleeper(endingIn: .seconds(7200))
            // A sooner end wakes the wait: the next one is the new end's.
            try await keeper.apply(.keep(Self.end(rig, in: 600)))
            try await rig.clock.waitForSleeper(endingIn: .seconds(600))
            #expect(await keeper.kept.count == 1)
            let reply = try await keeper.apply(.forget(operatorName: "home", flatId: "7", phone: Self.guest))
            #expect(reply["forgotten"] == .bool(true))
            #expect(store.load().expiries.isEmpty)
            // Nothing kept: the keeper waits a day (or for the next change), and no end comes.
            try await rig.clock.waitForSleeper(endingIn: .seconds(86400))
            rig.clock.advance(by: .seconds(7200))
            #expect(await keeper.expireDue() == 0)
            #expect(rig.operators.removals.all.isEmpty)
        }
    }

    /// `share_expiry` on the control socket: the daemon keeps an end for a configured operator,
    /// refuses one for an operator it does not have, and forgets one; the request line reads back as sent.
    @Test func theControlSocketKeepsAndForgetsAnEnd() async throws {
        try await Self.keeper { rig, keeper, _ throws in
            let folder = try TestDirectory(prefix: "intercom-share-ctl")
            let server = ControlServer(path: folder.path + "/run/control.sock", intercom: rig.intercom, logger: .silent)
            try server.start()
            try await withCleanup({ server.stop() }) {
                let expiry = Self.end(rig, in: 3600)
                let keep = ControlRequest(id: .integer(1), action: .shareExpiry(.keep(expiry)))
                #expect(try ControlRequest.parse(keep.json.encoded).get() == keep)
                let stranger = ShareExpiry(operatorName: "dacha", flatId: "7", phone: Self.guest, until: expiry.until)
                let forget = ControlRequest(id: .integer(3), action: .shareExpiry(.forget(operatorName: "home", flatId: "7", phone: Self.guest)))
                #expect(try ControlRequest.parse(forget.json.encoded).get() == forget)
                let path = server.path
                let replies = try await Self.blocking { () throws -> [JSONValue] in
                    let client = try ControlClient(path: path, timeout: .seconds(10))
                    let kept = try client.request(keep)
                    let refused = try client.request(ControlRequest(id: .integer(2), action: .shareExpiry(.keep(stranger))))
                    return [kept, refused]
                }
                #expect(replies[0]["ok"] == .bool(true) && replies[0]["data"]?["phone"]?.stringValue == Self.guest, "\(replies[0])")
                #expect(replies[1]["ok"] == .bool(false) && replies[1]["error"]?.stringValue?.contains("[operator dacha]") == true, "\(replies[1])")
                #expect(await keeper.kept == [expiry])
                let forgot = try await Self.blocking { try ControlClient(path: path, timeout: .seconds(10)).request(forget) }
                #expect(forgot["data"]?["forgotten"] == .bool(true), "\(forgot)")
                #expect(await keeper.kept.isEmpty)
                if case .failure(let f) = ControlRequest.parse(#"{"command":"share_expiry","operator":"home","flat":"7","phone":"12"}"#) {
                    #expect(f.message.contains("11 digits"))
                } else {
                    Issue.record("a two-digit phone was accepted")
                }
            }
        }
    }

    /// Blocking client work off the cooperative pool.
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// SECURITY: the file is 0600, and one that is not a plain file of ours is never read.
    @Test func theFileIsPrivateAndALinkIsNotRead() async throws {
        let folder = try TestDirectory(prefix: "intercom-share")
        let store = ShareExpiryStore(path: folder.path + "/state/share-expiries.json")
        let expiry = ShareExpiry(operatorName: "home", flatId: "7", phone: Self.guest, until: Date(timeIntervalSince1970: 2_000_000_000))
        try store.save([expiry]) { _ in }
        var info = stat()
        #expect(stat(store.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(store.load().expiries == [expiry])
        let linked = ShareExpiryStore(path: folder.path + "/link.json")
        try FileManager.default.createSymbolicLink(atPath: linked.path, withDestinationPath: store.path)
        let loaded = linked.load()
        #expect(loaded.expiries.isEmpty && loaded.problem?.contains("is a symlink or not a plain file") == true)
    }
}
