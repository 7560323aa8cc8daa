import Foundation
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import IntercomPhone
import IntercomPhoneTestSupport
import Testing

/// Mute, speaker and SIGHUP's reload on fakes: what the engine asks of the phone and reports.
@Suite(.removesTestFolders) struct AudioAndReloadPolicyTests {
    /// Mute and speaker are events (`audio_changed`), so the screen, `ctl status` and every event
    /// reader see the state in force; asking for the state already in force says nothing.
    @Test func muteAndSpeakerChangesAreEventsAndStatusAgrees() async throws {
        try await EngineRig.run { rig throws in
            try await rig.intercom.execute(.mute(true))
            #expect(await rig.intercom.status["muted"]?.boolValue == true)
            try await rig.intercom.execute(.mute(true))
            try await rig.intercom.execute(.speaker(nil))
            #expect(await rig.intercom.status["speaker"]?.boolValue == true)
            try await rig.intercom.execute(.mute(nil))
            #expect(await rig.intercom.status["muted"]?.boolValue == false)
            let changes = try await rig.events.wait("three audio_changed") { _ -> [(Bool, Bool)]? in
                let changes = rig.events.all.compactMap { e -> (Bool, Bool)? in
                    if case .audioChanged(let m, let s, _) = e.kind { (m, s) } else { nil } }
                return changes.count == 3 ? changes : nil
            }
            #expect(changes.map(\.0) == [true, true, false] && changes.map(\.1) == [false, true, true])
            #expect(rig.phone.requests.all == [.mute(true, call: nil), .mute(true, call: nil), .mute(false, call: nil)],
                    "the default device needs no switch")
        }
    }

    /// A mute does not outlast the conversation (issue 38): set with no call it holds for the next
    /// call, and the last call's end turns the microphone on again, said as `audio_changed`.
    @Test func muteEndsWithTheLastCall() async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig throws in
            try await rig.intercom.execute(.mute(true))
            let id = rig.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress)
            _ = try await rig.incoming(id)
            try await rig.intercom.execute(.answer(id))
            _ = try await rig.answered(id)
            #expect(await rig.intercom.status["muted"]?.boolValue == true, "muted with no call: the call starts muted")
            rig.phone.end(id)
            _ = try await rig.ended(id)
            try await rig.phone.requests.wait(for: "the microphone on again") { $0 == .mute(false, call: nil) }
            #expect(await rig.intercom.status["muted"]?.boolValue == false)
            let last = try await rig.event("audio_changed unmuted") { e -> Bool? in
                if case .audioChanged(false, _, _) = e { true } else { nil } }
            #expect(last)
        }
    }

    /// New panel policies apply to the running engine; the ringing call goes on and can be
    /// answered; what needs a restart is reported, not applied.
    @Test func policiesChangeWithoutDroppingTheRingingCall() async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig throws in
            let id = rig.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress)
            _ = try await rig.incoming(id)
            var newConfig = await rig.intercom.config
            newConfig.panels[0].calls = false
            newConfig.panels[0].guestUntil = rig.clock.date.addingTimeInterval(600)
            newConfig.panels[0].url = "http://10.0.0.50"
            newConfig.panels.append(PanelConfig(name: "yard", url: "http://10.0.0.60", user: "admin", password: "x"))
            let notApplied = try await rig.intercom.execute(.reload(newConfig)).notApplied
            #expect(notApplied.contains { $0.contains("yard") && $0.contains("restart") }, "\(notApplied)")
            #expect(notApplied.contains { $0.contains("entrance") && $0.contains("url") }, "\(notApplied)")
            let panel = try #require(await rig.intercom.config.panel(named: "entrance"))
            #expect(!panel.calls && panel.guestUntil != nil)
            #expect(panel.url == "http://10.0.0.5", "the HTTP client keeps the old URL until a restart")
            #expect(await rig.intercom.config.panel(named: "yard") == nil)
            try await rig.intercom.execute(.answer(id))
            #expect(try await rig.answered(id) == .user)
            #expect(!rig.events.all.contains { if case .callEnded = $0.kind { true } else { false } })
            let policy = try await rig.event("panel_policy") { e -> Bool? in if case .panelPolicy("entrance", let on, _) = e { on } else { nil } }
            #expect(policy == false)
        }
    }

    @Test func audioChangedJSONShape() {
        let json = IntercomEvent(.audioChanged(muted: true, speaker: false, device: "default")).json.encoded
        #expect(json.hasPrefix(#"{"event":"audio_changed","time":""#), "\(json)")
        #expect(json.hasSuffix(#"","muted":true,"speaker":false,"device":"default"}"#), "\(json)")
        #expect(IntercomEvent(.audioChanged(muted: false, speaker: true, device: "x")).eventName == .audioChanged)
    }
}
