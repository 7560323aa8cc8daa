import Testing
@testable import IntercomPanel

/// What the alarm stream says and when it asks again, on a manual clock (the delays are summed,
/// nothing sleeps): firmware without the stream is asked rarely and said once.
@Suite struct AlarmReconnectPolicyTests {
    private static let missing = PanelError.noAlarmStream(panel: "p", said: "answered \"alarmchangestate_cgi is not defined\"")

    /// The default policy on a manual clock: 30 s of a panel that has no stream.
    @Test func policyAsksAPanelWithoutTheStreamAtMostFiveTimesIn30Seconds() {
        var policy = AlarmReconnectPolicy(options: .init())
        var now: Duration = .zero
        var requests = 0
        var events: [AlarmStream.Event] = []
        while now < .seconds(30) {
            requests += 1
            let (said, delay) = policy.ended(.noStream(Self.missing))
            events += said
            now += delay
        }
        #expect(requests <= 5, "asked \(requests) times in 30 s")
        #expect(events == [.noAlarmStream(Self.missing)])
        #expect(!events.contains(.connected))
    }

    /// A panel down, then up without the stream: "reachable" once, "no stream" once; a later
    /// firmware with the stream is a connect again, and losing it again is said again.
    @Test func policySaysEachChangeOnce() {
        var policy = AlarmReconnectPolicy(options: .init(failuresBeforeUnreachable: 2))
        let down = PanelError.unreachable("gone")
        #expect(policy.ended(.failed(down)).events == [])
        #expect(policy.ended(.failed(down)).events == [.unreachable(down)])
        #expect(policy.ended(.noStream(Self.missing)).events == [.reachable, .noAlarmStream(Self.missing)])
        #expect(policy.ended(.noStream(Self.missing)).events == [])
        #expect(policy.confirmed() == [.connected])
        #expect(policy.ended(.streamed).delay == .seconds(1))
        #expect(policy.ended(.noStream(Self.missing)).events == [.noAlarmStream(Self.missing)])
    }
}
