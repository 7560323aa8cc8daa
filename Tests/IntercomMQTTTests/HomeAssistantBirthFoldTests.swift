import IntercomMQTT
import Testing

/// Home Assistant's births and the republishes they cause: the order alone decides, so the policy is
/// walked step by step here (the end-to-end test in DaemonMQTTExposureTests sends 50 births to a real
/// daemon through mosquitto).
@Suite struct HomeAssistantBirthFoldTests {
    /// Births in a row; how many of them started a round.
    private static func hear(_ births: Int, _ fold: inout HomeAssistantBirthFold) -> Int {
        (0..<births).filter { _ in fold.born() }.count
    }

    @Test func aBurstBeforeTheRoundPublishesIsOneRepublish() {
        var fold = HomeAssistantBirthFold()
        let firstStarts = Self.hear(1, &fold)
        // The rest of the burst arrives during the round's random pause.
        let burstStarts = Self.hear(49, &fold)
        fold.publishing()
        let another = fold.published()
        let later = Self.hear(1, &fold)
        #expect(firstStarts == 1, "the first birth starts a round")
        #expect(burstStarts == 0, "births while a round runs start none")
        #expect(!another, "the births heard before publishing are covered by it")
        #expect(later == 1, "once the round ended, a new birth starts another")
    }

    @Test func birthsWhilePublishingAskForExactlyOneMoreRound() {
        var fold = HomeAssistantBirthFold()
        _ = Self.hear(1, &fold)
        fold.publishing()
        // Heard while the state is being published: it may have missed part of it.
        let duringStarts = Self.hear(10, &fold)
        let second = fold.published()
        fold.publishing()
        let third = fold.published()
        #expect(duringStarts == 0)
        #expect(second, "one more round")
        #expect(!third, "and no third: nothing came during the second")
    }

    @Test func aCancelledRoundLeavesNothingRunning() {
        var fold = HomeAssistantBirthFold()
        _ = Self.hear(2, &fold)
        fold.cancelled()
        let fresh = fold == HomeAssistantBirthFold()
        let next = Self.hear(1, &fold)
        #expect(fresh)
        #expect(next == 1)
    }
}
