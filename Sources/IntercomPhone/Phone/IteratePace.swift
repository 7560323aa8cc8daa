import Foundation

/// How long the phone thread may sleep in poll(2) before it iterates liblinphone again.
///
/// The thread wakes at once for a job, a datagram on a core's SIP socket, a connection to its TCP
/// listener and data on any stream socket belle-sip has read SIP from (`SIPStreamSockets`): a
/// request never waits for the timer. The timer is for what arrives on no socket we watch and for
/// liblinphone's own timers (belle-sip's transaction timers, T1 = 500 ms; registration refreshes and
/// keep-alives, tens of seconds):
/// - while a call exists, 10 ms: RTP, RTCP and DTMF travel on media sockets we do not watch;
/// - for 2 s after anything woke the thread, 50 ms: a request's follow-ups (a 401 and the retried
///   REGISTER, the ACK of a 486, a new connection's first read) and the transaction timers it started;
/// - otherwise 500 ms: a retransmission or refresh is at most that late, never a ring;
/// - never past the driver's own next timer (`LinphoneCoreDriver.after`).
/// Before the read hooks know the stream sockets (an executable linked without them), the idle
/// pace stays 50 ms, as it was: data on a registrar's TCP connection would otherwise wait.
struct IteratePace {
    static let duringCall: TimeInterval = 0.010
    static let afterActivity: TimeInterval = 0.050
    static let quiet: TimeInterval = 0.5
    static let activityWindow: TimeInterval = 2
    /// No core: nothing to iterate, the thread sleeps until a job comes.
    static let noCore: TimeInterval = 3600

    /// Whether every socket a request can arrive on wakes the thread (the read hooks are in place).
    let watchesEverySIPSocket: Bool
    /// The monotonic time of the last wake-up by a job or a socket; nil: none yet.
    private(set) var lastActivity: TimeInterval?

    init(watchesEverySIPSocket: Bool) {
        self.watchesEverySIPSocket = watchesEverySIPSocket
    }

    /// Something woke the thread (a job, a readable socket) at `now`.
    mutating func noteActivity(at now: TimeInterval) {
        lastActivity = now
    }

    /// The sleep before the next iterate, at `now` (monotonic seconds); `untilNextTimer`: seconds to
    /// the earliest driver timer, nil when none is set.
    func interval(now: TimeInterval, hasCores: Bool, hasCalls: Bool, untilNextTimer: TimeInterval?) -> TimeInterval {
        guard hasCores else { return Self.noCore }
        let pace: TimeInterval
        if hasCalls {
            pace = Self.duringCall
        } else if !watchesEverySIPSocket {
            pace = Self.afterActivity
        } else if let lastActivity, now - lastActivity < Self.activityWindow {
            pace = Self.afterActivity
        } else {
            pace = Self.quiet
        }
        guard let untilNextTimer else { return pace }
        return max(0, min(pace, untilNextTimer))
    }
}
