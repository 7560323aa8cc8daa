import Foundation
@testable import IntercomPhone
import Testing

/// The phone thread's iterate interval on a manual clock: a call keeps 10 ms, anything that woke
/// the thread keeps 50 ms for 2 s, then the idle thread sleeps 500 ms — never past a driver timer,
/// and never longer than 50 ms while the read hooks cannot see the stream sockets.
@Suite struct IteratePaceTests {
    /// A monotonic clock that moves only when the test says.
    struct Clock {
        var now: TimeInterval = 1000
        mutating func advance(_ seconds: TimeInterval) { now += seconds }
    }

    @Test func noCoreSleepsUntilAJob() {
        let pace = IteratePace(watchesEverySIPSocket: true)
        #expect(pace.interval(now: 0, hasCores: false, hasCalls: false, untilNextTimer: 0.01) == IteratePace.noCore)
    }

    @Test func quietUntilSomethingWakesTheThreadThenFastForTwoSeconds() {
        var clock = Clock()
        var pace = IteratePace(watchesEverySIPSocket: true)
        #expect(pace.interval(now: clock.now, hasCores: true, hasCalls: false, untilNextTimer: nil) == 0.5)
        pace.noteActivity(at: clock.now)
        #expect(pace.interval(now: clock.now, hasCores: true, hasCalls: false, untilNextTimer: nil) == 0.05)
        clock.advance(1.99)
        #expect(pace.interval(now: clock.now, hasCores: true, hasCalls: false, untilNextTimer: nil) == 0.05)
        clock.advance(0.01)
        #expect(pace.interval(now: clock.now, hasCores: true, hasCalls: false, untilNextTimer: nil) == 0.5)
        // A later wake starts the window again.
        clock.advance(30)
        pace.noteActivity(at: clock.now)
        clock.advance(1)
        #expect(pace.interval(now: clock.now, hasCores: true, hasCalls: false, untilNextTimer: nil) == 0.05)
    }

    @Test func aCallIteratesEveryTenMillisecondsWhateverElse() {
        var clock = Clock()
        var pace = IteratePace(watchesEverySIPSocket: true)
        #expect(pace.interval(now: clock.now, hasCores: true, hasCalls: true, untilNextTimer: nil) == 0.01)
        pace.noteActivity(at: clock.now)
        clock.advance(60)
        #expect(pace.interval(now: clock.now, hasCores: true, hasCalls: true, untilNextTimer: 5) == 0.01)
    }

    @Test func aDriverTimerShortensTheSleepToItsDeadline() {
        let pace = IteratePace(watchesEverySIPSocket: true)
        #expect(pace.interval(now: 0, hasCores: true, hasCalls: false, untilNextTimer: 0.2) == 0.2)
        #expect(pace.interval(now: 0, hasCores: true, hasCalls: false, untilNextTimer: 0) == 0)
        // Overdue: no sleep, not a negative one.
        #expect(pace.interval(now: 0, hasCores: true, hasCalls: false, untilNextTimer: -1) == 0)
        // A timer further away than the pace does not lengthen it.
        #expect(pace.interval(now: 0, hasCores: true, hasCalls: false, untilNextTimer: 30) == 0.5)
    }

    @Test func withoutTheReadHooksTheIdlePaceStaysFiftyMilliseconds() {
        var clock = Clock()
        let pace = IteratePace(watchesEverySIPSocket: false)
        clock.advance(3600)
        #expect(pace.interval(now: clock.now, hasCores: true, hasCalls: false, untilNextTimer: nil) == 0.05)
        #expect(pace.interval(now: clock.now, hasCores: true, hasCalls: true, untilNextTimer: nil) == 0.01)
    }
}

/// The stream sockets the read hook notes: kept while they are the socket they were, dropped once
/// closed or when the number now names another socket, and on `forget`.
@Suite(.serialized) struct SIPStreamSocketsTests {
    static func pair() throws -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        return (fds[0], fds[1])
    }

    @Test func aReadSocketIsWatchedUntilClosedOrForgotten() throws {
        let (a, b) = try Self.pair()
        defer { close(b) }
        SIPStreamSockets.noteRead(a)
        SIPStreamSockets.noteRead(a)
        #expect(SIPStreamSockets.watched().filter { $0 == a }.count == 1)
        SIPStreamSockets.forget(a)
        #expect(!SIPStreamSockets.watched().contains(a))
        SIPStreamSockets.noteRead(a)
        #expect(SIPStreamSockets.watched().contains(a))
        close(a)
        #expect(!SIPStreamSockets.watched().contains(a))
    }

    @Test func aNumberReusedByAnotherSocketIsDropped() throws {
        let (a, b) = try Self.pair()
        SIPStreamSockets.noteRead(a)
        close(a)
        close(b)
        // The lowest free numbers come back: `c` (or `d`) takes `a`'s number.
        let (c, d) = try Self.pair()
        defer { close(c); close(d) }
        try #require(c == a || d == a)
        #expect(!SIPStreamSockets.watched().contains(a))
    }

    @Test func aFileThatIsNoSocketIsNotNoted() throws {
        let fd = open("/dev/null", O_RDONLY)
        defer { close(fd) }
        SIPStreamSockets.noteRead(fd)
        #expect(!SIPStreamSockets.watched().contains(fd))
    }
}
