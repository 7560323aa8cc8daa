import Foundation
import IntercomEngine
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport

/// Mute and speaker are events (`audio_changed`), so the screen, `ctl status` and every event
/// reader see the state in force rather than assume it.
@Suite struct IntercomAudioTests {
    @Test func muteAndSpeakerChangesAreEventsAndStatusAgrees() async throws {
        let (intercom, events) = try await PhoneTestSupport.intercom(panels: [])
        do {
            try await Self.muteThenSpeaker(intercom, events)
        } catch {
            await intercom.stop()
            throw error
        }
        await intercom.stop()
    }

    private static func muteThenSpeaker(_ intercom: Intercom, _ events: EventRecorder<IntercomEvent>) async throws {
        func audio(_ what: String, _ wanted: @escaping (Bool, Bool) -> Bool) async throws -> (muted: Bool, speaker: Bool, device: String) {
            try await events.wait(what) { e -> (Bool, Bool, String)? in
                if case .audioChanged(let m, let s, let d) = e.kind, wanted(m, s) { (m, s, d) } else { nil } }
        }
        try await intercom.execute(.mute(true))
        let muted = try await audio("audio_changed muted") { muted, _ in muted }
        #expect(muted.muted && !muted.speaker && muted.device == "default")
        #expect(await intercom.status["muted"]?.boolValue == true)
        // Asking for the state already in force changes nothing, so it says nothing.
        try await intercom.execute(.mute(true))
        try await intercom.execute(.speaker(nil))
        let speaker = try await audio("audio_changed speaker") { _, speaker in speaker }
        #expect(speaker.muted && speaker.speaker)
        #expect(await intercom.status["speaker"]?.boolValue == true)
        try await intercom.execute(.mute(nil))
        _ = try await audio("audio_changed unmuted") { muted, _ in !muted }
        #expect(await intercom.status["muted"]?.boolValue == false)
        let changes = events.all.filter { if case .audioChanged = $0.kind { true } else { false } }
        #expect(changes.count == 3, "\(changes)")
    }

    @Test func audioChangedJSONShape() {
        let json = IntercomEvent(.audioChanged(muted: true, speaker: false, device: "default")).json.encoded
        #expect(json.hasPrefix(#"{"event":"audio_changed","time":""#), "\(json)")
        #expect(json.hasSuffix(#"","muted":true,"speaker":false,"device":"default"}"#), "\(json)")
        #expect(IntercomEvent(.audioChanged(muted: false, speaker: true, device: "x")).eventName == .audioChanged)
    }
}
