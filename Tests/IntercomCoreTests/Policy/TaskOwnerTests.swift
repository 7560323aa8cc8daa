import Foundation
import IntercomCore
import IntercomBase
import Testing

/// The owner of a call's (the engine's, a connection's) tasks: what it holds, what `end` and a
/// slot's replacement cancel, and that an ended owner starts nothing more.
@Suite struct TaskOwnerTests {
    @Test func endCancelsEveryTaskAndReturnsOnceTheyHaveReturned() async {
        let census = TaskCensus()
        let owner = TaskOwner("call c1", census: census)
        for _ in 0..<3 {
            owner.start { await Self.untilCancelled() }
        }
        #expect(owner.running == 3 && census.running("call c1") == 3)
        await owner.end()
        #expect(owner.running == 0)
        #expect(census.all.isEmpty)
    }

    @Test func anEndedOwnerStartsNothing() async {
        let owner = TaskOwner("call c2")
        await owner.end()
        #expect(owner.start { Issue.record("a task started after the owner ended") } == nil)
        #expect(owner.running == 0)
    }

    @Test func aSlotsNewTaskCancelsTheOldOne() async {
        let owner = TaskOwner("engine")
        let first = owner.start("refresh") { await Self.untilCancelled() }
        let second = owner.start("refresh") { await Self.untilCancelled() }
        await first?.value
        #expect(first?.isCancelled == true && second?.isCancelled == false)
        #expect(owner.has("refresh"))
        owner.cancel("refresh")
        await second?.value
        #expect(!owner.has("refresh") && owner.running == 0)
    }

    @Test func drainWaitsWithoutCancelling() async {
        let owner = TaskOwner("hooks")
        let (gate, open) = AsyncStream<Void>.makeStream()
        let task = owner.start { for await _ in gate {} }
        async let drained: Void = owner.drain()
        open.finish()
        await drained
        #expect(task?.isCancelled == false)
        #expect(owner.running == 0)
    }

    static func untilCancelled() async {
        let (never, _) = AsyncStream<Void>.makeStream()
        for await _ in never {}
    }
}
