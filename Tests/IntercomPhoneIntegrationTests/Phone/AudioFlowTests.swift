import Foundation
import Testing
import IntercomPhone
import IntercomTestSupport
import IntercomPhoneTestSupport

/// Audio really crosses a call in both directions: each phone plays its own tone from a file and
/// records what it hears; the recordings must carry the other side's tone.
@Suite(.removesTestFolders) struct AudioFlowTests {
    @Test("1000 Hz from A reaches B and 600 Hz from B reaches A (PCMA)")
    func tonesCrossBothWays() async throws {
        let dir = try TestDirectory(prefix: "intercom-audioflow")
        // Longer than the call: liblinphone loops the file, but a short one would cut out at the seam.
        try WAVTone.write(to: dir.file("toneA.wav"), frequency: 1000, seconds: 10)
        try WAVTone.write(to: dir.file("toneB.wav"), frequency: 600, seconds: 10)
        let (a, aEvents) = try await PhoneTestSupport.phone(
            "a", audio: .files(play: dir.file("toneA.wav").path, record: dir.file("a.wav").path),
            video: .off, audioCodecs: ["PCMA"])
        let (b, bEvents) = try await PhoneTestSupport.phone(
            "b", audio: .files(play: dir.file("toneB.wav").path, record: dir.file("b.wav").path),
            video: .off, audioCodecs: ["PCMA"])
        try await withCleanup({ await a.stop(); await b.stop() }) {
            let outgoing = try await a.call(PhoneTestSupport.uri(of: b, user: "b"), video: false)
            let incoming = try await bEvents.wait("incoming at B") { $0.incomingCall }
            try await b.answer(incoming.id, video: false)
            let media = try await bEvents.wait("B established") { $0.established(incoming.id) }
            _ = try await aEvents.wait("A established") { $0.established(outgoing) }
            #expect(media.audioCodec?.uppercased().hasPrefix("PCMA") != false, "\(media)")

            try await Task.sleep(for: .seconds(2))
            try await a.hangup(outgoing)
            _ = try await aEvents.wait("A ended") { $0.ended(outgoing) }
            _ = try await bEvents.wait("B ended") { $0.ended(incoming.id) }

            let heardByB = try await Self.dominantFrequency(dir.file("b.wav"))
            let heardByA = try await Self.dominantFrequency(dir.file("a.wav"))
            #expect(heardByB.map { abs($0 - 1000) <= 30 } == true, "B recorded \(heardByB.map { "\($0) Hz" } ?? "silence"), expected ~1000 Hz")
            #expect(heardByA.map { abs($0 - 600) <= 30 } == true, "A recorded \(heardByA.map { "\($0) Hz" } ?? "silence"), expected ~600 Hz")
        }
    }

    /// The recording is closed when the call ends; poll briefly until it has at least 0.5 s of audio.
    static func dominantFrequency(_ url: URL, timeout: Duration = .seconds(5)) async throws -> Double? {
        try await WAVTone.dominantFrequency(recording: url, timeout: timeout)
    }
}
