import Foundation
import Testing
import IntercomPhone
import IntercomTestSupport
import IntercomPhoneTestSupport

/// `[sip] media_encryption`: SRTP between two liblinphone cores carries audio; `srtp` still takes a
/// plain-RTP caller (what Beward panels are); `srtp_mandatory` refuses one without a call.
@Suite(.serialized, .removesTestFolders) struct SRTPCallTests {
    @Test("SRTP on both sides: the call is encrypted and tones cross both ways")
    func srtpCallCarriesAudio() async throws {
        let dir = try TestDirectory(prefix: "intercom-srtp")
        try WAVTone.write(to: dir.file("toneA.wav"), frequency: 1000, seconds: 10)
        try WAVTone.write(to: dir.file("toneB.wav"), frequency: 600, seconds: 10)
        let (a, aEvents) = try await PhoneTestSupport.phone(
            "a", audio: .files(play: dir.file("toneA.wav").path, record: dir.file("a.wav").path),
            video: .off, audioCodecs: ["PCMA"], mediaEncryption: .srtp)
        let (b, bEvents) = try await PhoneTestSupport.phone(
            "b", audio: .files(play: dir.file("toneB.wav").path, record: dir.file("b.wav").path),
            video: .off, audioCodecs: ["PCMA"], mediaEncryption: .srtpMandatory)
        try await withCleanup({ await a.stop(); await b.stop() }) {
            let outgoing = try await a.call(PhoneTestSupport.uri(of: b, user: "b"), video: false)
            let incoming = try await bEvents.wait("incoming at B") { $0.incomingCall }
            try await b.answer(incoming.id, video: false)
            let media = try await bEvents.wait("B established") { $0.established(incoming.id) }
            let callerMedia = try await aEvents.wait("A established") { $0.established(outgoing) }
            #expect(media.encryption == "srtp" && callerMedia.encryption == "srtp", "\(media) / \(callerMedia)")

            try await Task.sleep(for: .seconds(2))
            try await a.hangup(outgoing)
            _ = try await aEvents.wait("A ended") { $0.ended(outgoing) }
            _ = try await bEvents.wait("B ended") { $0.ended(incoming.id) }
            let heardByB = try await AudioFlowTests.dominantFrequency(dir.file("b.wav"))
            let heardByA = try await AudioFlowTests.dominantFrequency(dir.file("a.wav"))
            #expect(heardByB.map { abs($0 - 1000) <= 30 } == true, "B heard \(String(describing: heardByB))")
            #expect(heardByA.map { abs($0 - 600) <= 30 } == true, "A heard \(String(describing: heardByA))")
        }
    }

    @Test("media_encryption = srtp still answers a plain-RTP caller (a Beward panel), unencrypted")
    func optionalSRTPTakesPlainCaller() async throws {
        let (panel, panelEvents) = try await PhoneTestSupport.phone("panel", video: .off)
        let (client, clientEvents) = try await PhoneTestSupport.phone("client", video: .off, mediaEncryption: .srtp)
        try await withCleanup({ await panel.stop(); await client.stop() }) {
            let outgoing = try await panel.call(PhoneTestSupport.uri(of: client, user: "client"), video: false)
            let incoming = try await clientEvents.wait("incoming") { $0.incomingCall }
            try await client.answer(incoming.id, video: false)
            let media = try await clientEvents.wait("established") { $0.established(incoming.id) }
            _ = try await panelEvents.wait("panel established") { $0.established(outgoing) }
            #expect(media.encryption == "none", "\(media)")
            try await client.hangup(incoming.id)
            _ = try await panelEvents.wait("panel ended") { $0.ended(outgoing) }
        }
    }

    @Test("media_encryption = srtp_mandatory refuses a plain-RTP caller: the caller's call fails, nothing rings")
    func mandatorySRTPRefusesPlainCaller() async throws {
        let (panel, panelEvents) = try await PhoneTestSupport.phone("panel", video: .off)
        let (client, clientEvents) = try await PhoneTestSupport.phone("client", video: .off, mediaEncryption: .srtpMandatory)
        try await withCleanup({ await panel.stop(); await client.stop() }) {
            let outgoing = try await panel.call(PhoneTestSupport.uri(of: client, user: "client"), video: false)
            let reason = try await panelEvents.wait("panel's call ended") { $0.ended(outgoing) }
            #expect(reason == .error, "a refused call ends as an error for the caller: \(reason)")
            try await Task.sleep(for: .milliseconds(300))
            // liblinphone refuses the offer before the call exists: nothing rings, no event.
            #expect(!clientEvents.all.contains { $0.incomingCall != nil }, "\(clientEvents.all)")
            #expect(!clientEvents.all.contains { if case .established = $0 { true } else { false } }, "\(clientEvents.all)")
            #expect(!panelEvents.all.contains { $0.established(outgoing) != nil }, "\(panelEvents.all)")
        }
    }
}
