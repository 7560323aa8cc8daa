import Foundation
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import IntercomImaging
import IntercomPhone
import IntercomTestSupport
import Testing

/// A call is one object: every task it starts (peephole, live picture, delayed answer, guest
/// mode's waits, the waits of openings on its state) ends with it, and nothing the engine started
/// outlives `stop()`. Seeded random sequences of rings, answers, declines, hang-ups, openings,
/// transfers, guest mode, calls placed and time on the manual clock; the engine's task census
/// says what still runs. Milliseconds each, nothing sleeps but the poll for a task to return.
@Suite struct CallTaskOwnershipTests {
    static let entrance = PanelConfig(name: "entrance", url: "http://10.0.0.5", match: [.uriPrefix("sip:100001@")],
                                      autoAnswer: .after(seconds: 3))
    static let gate = PanelConfig(name: "gate", url: "http://10.0.0.6", match: [.uriPrefix("sip:100002@")], open: .both)
    static let callers = [(panel: "entrance", uri: "sip:100001@10.0.0.5", source: "10.0.0.5"),
                          (panel: "gate", uri: "sip:100002@10.0.0.6", source: "10.0.0.6")]

    @Test func noTaskOutlivesItsCallIn200RandomCallSequences() async throws {
        for seed in UInt64(1)...200 {
            try await Self.sequence(seed: seed, steps: 14)
        }
    }

    /// One sequence on a fresh engine: after each step, every call that has ended must have no
    /// task left (each is polled briefly: cancelling is prompt, returning takes a hop or two);
    /// at the end, no call's task started late, and after `stop` no task of any owner runs.
    static func sequence(seed: UInt64, steps: Int) async throws {
        let rig = try await EngineRig.start(panels: [entrance, gate])
        var random = SeededRandom(seed: seed)
        rig.phone.answerOutcome = random.next(below: 3) == 0 ? .establishedOnly : .confirmed
        // Screens look at both panels live, so calls start their live pictures too.
        for panel in callers { rig.intercom.peephole.want(panel: panel.panel, size: PixelSize(width: 160, height: 120)) }
        var calls: [CallID] = []
        var checked: Set<CallID> = []
        var trail: [String] = []
        try await withCleanup({ await rig.stop() }) {
            try await withThrowingTaskGroup(of: Void.self) { commands in
                for _ in 0..<steps {
                    let step = Self.step(&random, rig: rig, calls: &calls)
                    trail.append(step.description)
                    if let command = step.command {
                        // Commands may wait on the clock (an opening without talking): beside the driver.
                        commands.addTask { _ = try? await rig.intercom.execute(command) }
                    }
                    await rig.settle()
                    for id in Self.endedCalls(rig) where !checked.contains(id) {
                        checked.insert(id)
                        let left = await Self.tasksLeft(rig, call: id)
                        #expect(left == 0, "seed \(seed): call \(id) ended with \(left) task(s) still running after \(trail)")
                    }
                }
                // Whatever still rings ends; time runs out every wait of the commands.
                for id in calls { rig.phone.end(id) }
                for _ in 0..<4 {
                    await rig.settle()
                    rig.clock.advance(by: .seconds(30))
                }
                await rig.settle()
                for id in Self.endedCalls(rig) {
                    let left = await Self.tasksLeft(rig, call: id)
                    #expect(left == 0, "seed \(seed): call \(id) has \(left) task(s) running after it ended (\(trail))")
                }
                await rig.stop()
                commands.cancelAll()
                try await commands.waitForAll()
            }
            #expect(rig.intercom.census.all.isEmpty, "seed \(seed): tasks running after stop: \(rig.intercom.census.all) (\(trail))")
        }
    }

    /// What one step does: something to the fake phone or the clock, or a command for the engine.
    struct Step: CustomStringConvertible {
        var description: String
        var command: IntercomCommand?
    }

    static func step(_ random: inout SeededRandom, rig: EngineRig, calls: inout [CallID]) -> Step {
        let caller = callers[random.next(below: callers.count)]
        let call: CallID? = calls.isEmpty ? nil : calls[random.next(below: calls.count)]
        switch random.next(below: 11) {
        case 0, 1:
            // A ring; the same panel again replaces its earlier call.
            let id = rig.phone.ring(from: caller.uri, source: caller.source)
            calls.append(id)
            return Step(description: "ring \(caller.panel) \(id)")
        case 2:
            return Step(description: "answer \(call?.rawValue ?? "-")", command: .answer(call))
        case 3:
            return Step(description: "decline \(call?.rawValue ?? "-")", command: .decline(call))
        case 4:
            return Step(description: "hang up \(call?.rawValue ?? "-")", command: .hangup(call))
        case 5:
            guard let call else { return Step(description: "nothing to end") }
            rig.phone.end(call)
            return Step(description: "remote end \(call)")
        case 6:
            // A hook's opening waits for the call to be confirmed, on the call's own timer.
            let by: DoorTrigger = random.next(below: 2) == 0 ? .key : .hook
            return Step(description: "open \(caller.panel) by \(by)", command: .open(panel: caller.panel, door: .main, by: by))
        case 7:
            return Step(description: "transfer \(call?.rawValue ?? "-")", command: .transfer(call, target: "sip:flat12@10.0.0.9"))
        case 8:
            let on = random.next(below: 2) == 0
            return Step(description: "guest mode \(on ? "on" : "off") at \(caller.panel)",
                        command: .setGuest(panel: caller.panel, until: on ? rig.clock.date.addingTimeInterval(600) : nil))
        case 9:
            return Step(description: "call \(caller.panel)", command: .call(panel: caller.panel))
        default:
            let millis = 100 + random.next(below: 6000)
            rig.clock.advance(by: .milliseconds(millis))
            return Step(description: "+\(millis) ms")
        }
    }

    /// The calls whose `call_ended` was published.
    static func endedCalls(_ rig: EngineRig) -> [CallID] {
        rig.events.all.compactMap { if case .callEnded(let c, _, _) = $0.kind { c.id } else { nil } }
    }

    /// The call's tasks still running, once they have had up to 5 s of real time to return.
    static func tasksLeft(_ rig: EngineRig, call id: CallID) async -> Int {
        let label = Intercom.taskLabel(call: id)
        _ = await TestPatience.eventually(within: .seconds(5), every: .milliseconds(1)) { rig.intercom.census.running(label) == 0 }
        return rig.intercom.census.running(label)
    }
}
