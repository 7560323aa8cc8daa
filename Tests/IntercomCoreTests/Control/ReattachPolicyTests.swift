import Foundation
import IntercomAttach
import IntercomBase
import IntercomCoreFakes
import Testing

/// A screen whose daemon went away (issue 38): when it tries again, when it says how to start the
/// daemon, and what its title and line say meanwhile. A policy on a manual clock, no socket.
@Suite struct ReattachPolicyTests {
    typealias Schedule = ReattachSchedule<ManualClock.Instant>

    @Test func waitsDoubleFromAFifthOfASecondToFiveSecondsAndStartOverOnceAttached() {
        let clock = ManualClock()
        var schedule = Schedule()
        #expect(schedule.away(at: clock.now) == nil)
        var waits = [schedule.wentAway(at: clock.now)]
        for _ in 0..<7 { waits.append(schedule.failed()) }
        #expect(waits == [.milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1600),
                          .milliseconds(3200), .seconds(5), .seconds(5), .seconds(5)])
        // A daemon stopped for 12 s is tried at least every 5 s: found within 5 s of coming back.
        schedule.attached()
        #expect(schedule.away(at: clock.now) == nil)
        #expect(schedule.wentAway(at: clock.now) == .milliseconds(200))
    }

    @Test func awayThirtySecondsTheScreenSaysHowToStartTheDaemon() {
        let clock = ManualClock()
        var schedule = Schedule()
        _ = schedule.wentAway(at: clock.now)
        let start = clock.now
        let at12 = schedule.away(at: start.advanced(by: .seconds(12)))
        #expect(at12?.duration == .seconds(12) && at12?.long == false)
        #expect(schedule.away(at: start.advanced(by: .milliseconds(29_999)))?.long == false)
        #expect(schedule.away(at: start.advanced(by: .seconds(30)))?.long == true)
    }

    @Test func theTitleAndTheLineSayTheDaemonIsAwayUntilItIsBack() {
        let away = LinkMode.away(DaemonAway(seconds: 12, long: false))
        #expect(away.shortTitle == "daemon away 12 s")
        #expect(away.title == "daemon away 12 s — calls do not ring here until it is back")
        #expect(away.awayLine == "the daemon went away 12 s ago; attaching again by itself once it is back")
        #expect(LinkMode.attached(pid: 7).awayLine == nil && LinkMode.ownEngine.awayLine == nil)
        let long = LinkMode.away(DaemonAway(seconds: 31, long: true))
        #expect(long.awayLine?.contains("start it ('systemctl --user start intercom' or 'intercom daemon')") == true)
        let other = DaemonIdentity(pid: 4242, version: "0.1.0", config: "/home/u/.config/intercom/config.ini")
        let wrong = LinkMode.away(DaemonAway(seconds: 3, long: false, other: other, config: "/home/u/desk.ini"))
        #expect(wrong.awayLine == "the daemon on the socket (pid 4242, serving /home/u/.config/intercom/config.ini) is not "
                + "this screen's (/home/u/desk.ini); stop it, or give this config its own [daemon] socket; retrying")
    }

    @Test func aDaemonServesAConfigByItsCanonicalPath() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("intercom-identity-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("desk.ini").path
        try Data("[sip]\n".utf8).write(to: URL(fileURLWithPath: file))
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/link.ini", withDestinationPath: file)
        let canonical = try #require(DaemonIdentity.canonicalConfig(file))
        let daemon = DaemonIdentity(pid: 1, version: "0.1.0", config: canonical)
        #expect(daemon.serves(config: folder.path + "/link.ini"))
        #expect(daemon.serves(config: folder.path + "/./desk.ini"))
        #expect(!daemon.serves(config: folder.path + "/other.ini"))
        #expect(!daemon.serves(config: nil))
        #expect(DaemonIdentity(pid: 1, version: "0.1.0", config: nil).serves(config: nil))
        // What the daemon tells, read back; a daemon too old to tell is nobody (the screen takes it).
        #expect(DaemonIdentity(json: daemon.json, peerPID: 9) == daemon)
        #expect(DaemonIdentity(json: .object([("screen", .integer(1))]), peerPID: 9) == nil)
    }
}
