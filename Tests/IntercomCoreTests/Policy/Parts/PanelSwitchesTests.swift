import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomCoreFakes
import IntercomTestSupport
import Testing

/// The switches part on a fake store: a switch is kept before it holds, a refused one is told,
/// guest mode off holds even unsaved, and the config's panels get the kept switches on top.
@Suite struct PanelSwitchesTests {
    static let clock = ManualClock()
    static let panels = [PanelConfig(name: "Gate", url: "http://127.0.0.1:9"), PanelConfig(name: "yard", url: "http://127.0.0.1:9")]

    @Test func aSwitchIsKeptAndThenHolds() throws {
        let store = FakeSwitchStore()
        var part = PanelSwitches(store: store)
        var panels = part.load(Self.panels, logger: .silent)
        try part.setCalls(false, in: &panels, at: 0, logger: .silent)
        #expect(!panels[0].calls && panels[1].calls)
        #expect(store.kept["gate"]?.calls == false, "kept by the lowercased name")
        // A restart: the kept switch is put on top of the config's panels again.
        part = PanelSwitches(store: store)
        #expect(part.load(Self.panels, logger: .silent).map(\.calls) == [false, true])
        #expect(store.applied == 2)
    }

    @Test func aSwitchTheStoreRefusesDoesNotHoldAndSaysWhy() throws {
        let store = FakeSwitchStore()
        var part = PanelSwitches(store: store)
        var panels = part.load(Self.panels, logger: .silent)
        store.fail(.init("database down"))
        let error = #expect(throws: PanelSwitches.NotSaved.self) { try part.setCalls(false, in: &panels, at: 0, logger: .silent) }
        #expect(panels[0].calls, "not switched without being kept")
        #expect(error?.applied == false)
        #expect(error?.message == "panel Gate: not switched to calls off (do not disturb): it could not be saved to outlive a restart: database down")
        let later = Self.clock.date.addingTimeInterval(3600)
        #expect(throws: PanelSwitches.NotSaved.self) { try part.setGuest(later, in: &panels, at: 1, now: Self.clock.date, logger: .silent) }
        #expect(panels[1].guestUntil == nil, "guest mode is not switched on without being kept")
    }

    @Test func guestModeOffHoldsEvenUnsaved() throws {
        let store = FakeSwitchStore()
        var part = PanelSwitches(store: store)
        var config = Self.panels
        config[0].guestUntil = Self.clock.date.addingTimeInterval(600)
        var panels = part.load(config, logger: .silent)
        store.fail(.init("disk full"))
        let error = #expect(throws: PanelSwitches.NotSaved.self) { try part.setGuest(nil, in: &panels, at: 0, now: Self.clock.date, logger: .silent) }
        #expect(panels[0].guestUntil == nil, "guest mode off closes the door to strangers at once")
        #expect(error?.applied == true)
        #expect(error?.message == "panel Gate: guest mode off now, but not saved, so a restart may undo it: disk full")
    }

    @Test func guestModeUntilATimePastIsOff() throws {
        let store = FakeSwitchStore()
        var part = PanelSwitches(store: store)
        var panels = part.load(Self.panels, logger: .silent)
        try part.setGuest(Self.clock.date.addingTimeInterval(-1), in: &panels, at: 0, now: Self.clock.date, logger: .silent)
        #expect(panels[0].guestUntil == nil)
        #expect(store.kept["gate"]?.guestUntil == .some(nil))
    }

    @Test func withoutAStoreASwitchHoldsInMemory() throws {
        var part = PanelSwitches(store: nil)
        var panels = part.load(Self.panels, logger: .silent)
        try part.setCalls(false, in: &panels, at: 1, logger: .silent)
        #expect(panels.map(\.calls) == [true, false])
        #expect(PanelSwitches.json(panels[1]) == .object([("panel", .string("yard")), ("calls", .bool(false)), ("guest_until", .null)]))
    }

    /// Through the engine: a refused switch is the caller's error and an `error` event every screen sees.
    @Test func theEngineTellsEveryScreenOfASwitchNotKept() async throws {
        let store = FakeSwitchStore()
        let rig = try await EngineRig.start(panels: Self.panels, switches: store)
        try await withCleanup({ await rig.stop() }) {
            store.fail(.init("database down"))
            let error = await #expect(throws: IntercomError.self) { try await rig.intercom.execute(.setCalls(panel: "yard", on: false)) }
            #expect(error?.description.contains("not switched to calls off") == true)
            let said = try await rig.events.wait("the error event") { event -> String? in if case .error(let message) = event.kind { message } else { nil } }
            #expect(said.contains("database down"))
            #expect(await rig.intercom.config.panels[1].calls)
        }
    }
}
