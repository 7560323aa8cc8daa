import Foundation
import Testing
import IntercomPhone
import IntercomTestSupport
import IntercomPhoneTestSupport

/// liblinphone's own call recording, as `[panel] record = calls` uses it: one `.mkv` with both
/// sides' audio and the caller's video, closed before the call's end is reported.
@Suite(.removesTestFolders) struct CallRecordingTests {
    @Test func answeredCallIsRecordedWithAudioAndVideo() async throws {
        try await withStaticPicture {
            let (panel, panelEvents) = try await PhoneTestSupport.phone(
                "panel", video: .sendPicture(path: VideoFlowTests.redPicture, fps: 10), videoCodecs: ["H264"])
            let (client, clientEvents) = try await PhoneTestSupport.phone("client", video: .receive)
            let folder = PhoneTestSupport.tempDirectory("recording")
            try await withCleanup({ await panel.stop(); await client.stop(); try? FileManager.default.removeItem(atPath: folder) }) {
                let clip = folder + "/call.mkv"
                let outgoing = try await panel.call(PhoneTestSupport.uri(of: client, user: "client"), video: true)
                let incoming = try await clientEvents.wait("incoming") { $0.incomingCall }
                try await client.answer(incoming.id, video: true, recordTo: clip)
                _ = try await clientEvents.wait("established") { $0.established(incoming.id) }
                _ = try await panelEvents.wait("panel established") { $0.established(outgoing) }
                let talked = Date()
                try await Task.sleep(for: .seconds(3))
                try await panel.hangup(outgoing)
                _ = try await clientEvents.wait("ended") { $0.ended(incoming.id) }
                let length = Date().timeIntervalSince(talked)
                let probe = try await MediaProbe.probe(clip)
                #expect(probe.hasAudio && probe.hasVideo, "\(probe)")
                #expect(abs((probe.duration ?? 0) - length) <= 1, "clip \(probe), call \(length) s")
            }
        }
    }
}
