import Foundation
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import IntercomImaging
import IntercomPanel
import IntercomPhoneTestSupport
import Testing

/// The peephole and the panels' alarm streams on fakes: the snapshot pace is counted on the
/// manual clock, so the rate is exact instead of "2.5 to 3.5 a second over two seconds".
@Suite(.removesTestFolders) struct PeepholePolicyTests {
    static func entrance(fps: Double) -> PanelConfig {
        CallPolicyTests.entrance { $0.peepholeFPS = fps }
    }

    @Test func thePeepholePollsAtExactlyItsRateWhileRingingAndStopsWhenTheCallEnds() async throws {
        try await EngineRig.run(panels: [Self.entrance(fps: 4)]) { rig throws in
            let snapshots = rig.panel("entrance").snapshots
            let id = rig.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress)
            let frame = try await rig.event("peephole_frame") { e -> (Int, Int)? in
                if case .peepholeFrame(let c, let w, let h, _) = e, c.id == id { (w, h) } else { nil } }
            #expect(frame == (64, 48))
            #expect(rig.intercom.peephole.latest(panel: "entrance")?.call == id)
            #expect(snapshots.count == 1)
            // Two seconds in quarter-second slots: one snapshot at each.
            for slot in 1...8 {
                try await rig.clock.waitForSleeper(endingIn: .milliseconds(250))
                rig.clock.advance(by: .milliseconds(250))
                try await snapshots.wait("snapshot \(slot + 1)") { $0.count == slot + 1 ? true : nil }
            }
            // Between slots nothing is fetched.
            try await rig.clock.waitForSleeper(endingIn: .milliseconds(250))
            rig.clock.advance(by: .milliseconds(249))
            #expect(snapshots.count == 9)
            rig.phone.end(id)
            _ = try await rig.ended(id)
            rig.clock.advance(by: .seconds(10))
            #expect(snapshots.count == 9, "snapshots went on after the call ended")
            #expect(rig.clock.pending.isEmpty, "the peephole still waits: \(rig.clock.pending)")
        }
    }

    /// A slow panel slows the peephole down instead of piling up requests: a failing snapshot is
    /// reported once on the hub, and the next one is asked for at the next slot.
    @Test func aFailingPanelIsReportedAndPolledAtTheSamePace() async throws {
        try await EngineRig.run(panels: [Self.entrance(fps: 2)]) { rig throws in
            let panel = rig.panel("entrance")
            panel.fail(with: .unreachable("fake panel down"))
            let id = rig.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress)
            _ = try await rig.incoming(id)
            try await rig.clock.waitForSleeper(endingIn: .milliseconds(500))
            #expect(rig.intercom.peephole.problem(panel: "entrance")?.contains("fake panel down") == true)
            panel.fail(with: nil)
            rig.clock.advance(by: .milliseconds(500))
            _ = try await rig.event("peephole_frame") { if case .peepholeFrame(let c, _, _, _) = $0, c.id == id { true } else { nil } }
            #expect(panel.snapshots.count == 2)
            #expect(rig.intercom.peephole.problem(panel: "entrance") == nil)
        }
    }

    @Test func alarmStreamBecomesPanelEvents() async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig throws in
            await rig.intercom.watchPanels()
            let panel = rig.panel("entrance")
            try await panel.alarmFeeds.wait("the alarm feed opened") { $0.first }
            panel.sendAlarm(.connected)
            panel.sendAlarm(.alarm(PanelAlarm(kind: .ding, active: true)))
            panel.sendAlarm(.alarm(PanelAlarm(kind: .ding, active: false)))
            panel.sendAlarm(.unreachable(.unreachable("gone")))
            panel.sendAlarm(.reachable)
            _ = try await rig.event("panel_reachable") { if case .panelReachable("entrance") = $0 { true } else { nil } }
            let names = rig.events.all.map(\.name).filter { $0.hasPrefix("panel_") }
            #expect(names == ["panel_event", "panel_event", "panel_unreachable", "panel_reachable"])
            let states = rig.events.all.compactMap { e -> String? in
                if case .panelEvent("entrance", "ding", let state, _) = e.kind { state } else { nil } }
            #expect(states == ["on", "off"])
        }
    }

    /// A relay line names the door its relay opens (1 main, 2 alt), one event per relay it lists.
    @Test func aRelayLineNamesItsDoor() async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig throws in
            await rig.intercom.watchPanels()
            let panel = rig.panel("entrance")
            try await panel.alarmFeeds.wait("the alarm feed opened") { $0.first }
            panel.sendAlarm(.alarm(PanelAlarm(kind: .door, active: true, numbers: [1, 2])))
            panel.sendAlarm(.alarm(PanelAlarm(kind: .motion, active: true, numbers: [1])))
            _ = try await rig.event("panel_event") { if case .panelEvent("entrance", "motion", _, _) = $0 { true } else { nil } }
            let doors = rig.events.all.compactMap { e -> String?? in
                if case .panelEvent("entrance", _, _, let door) = e.kind { door } else { nil } }
            #expect(doors == ["main", "alt", nil])
            #expect(rig.events.all.first { $0.name == "panel_event" }?.json.encoded.contains(#""door":"main""#) == true)
        }
    }

    /// The panel's live stream plays for a ringing call once a screen asks for a size, scaled
    /// to it; the call's end stops it.
    @Test func aRingingCallsLiveStreamPlaysForAViewerAndStopsWithTheCall() async throws {
        let panel = CallPolicyTests.entrance { $0.peepholeFPS = 1 }
        try await EngineRig.run(panels: [panel]) { rig throws in
            let url = try #require(panel.rtspURL)
            let id = rig.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress)
            _ = try await rig.incoming(id)
            rig.intercom.peephole.want(panel: "entrance", size: PixelSize(width: 160, height: 120))
            let stream = try await rig.video.stream(of: url)
            #expect(stream.requestedSize == PixelSize(width: 160, height: 120))
            stream.push()
            _ = try await rig.events.wait("a live frame in the hub") { _ in rig.intercom.peephole.latest(panel: "entrance")?.kind == .live ? true : nil }
            #expect(rig.intercom.peephole.latest(panel: "entrance")?.call == id)
            rig.phone.end(id)
            _ = try await rig.ended(id)
            try await rig.video.streams.wait(for: "the stream stopped") { $0 === stream && $0.isStopped }
        }
    }
}
