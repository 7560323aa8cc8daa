import Foundation
import Testing
import IntercomPhone
import IntercomTestSupport
import IntercomPhoneTestSupport

/// Decoded video reaches subscribers, and it is the picture the caller sent.
@Suite(.removesTestFolders) struct VideoFlowTests {
    static let redPicture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/red-320x240.jpg").path

    /// A Beward panel sends H.264; two liblinphone cores would otherwise settle on VP8.
    @Test(arguments: ["H264", "VP8"])
    func callerPictureArrivesAsFrames(codec: String) async throws {
        // The static picture is process-wide in mediastreamer: no other sender at the same time.
        try await withStaticPicture {
            let (panel, panelEvents) = try await PhoneTestSupport.phone(
                "panel", video: .sendPicture(path: Self.redPicture, fps: 10), videoCodecs: [codec])
            let (client, clientEvents) = try await PhoneTestSupport.phone("client", video: .receive)
            try await withCleanup({ await panel.stop(); await client.stop() }) {
                let frames = FrameCounter()
                client.video.subscribe { frames.add($0) }

                let outgoing = try await panel.call(PhoneTestSupport.uri(of: client, user: "client"), video: true)
                let incoming = try await clientEvents.wait("incoming") { $0.incomingCall }
                #expect(incoming.offersVideo)
                try await client.answer(incoming.id, video: true)
                let media = try await clientEvents.wait("established") { $0.established(incoming.id) }
                #expect(media.videoCodec?.hasPrefix(codec) == true, "negotiated \(String(describing: media.videoCodec))")
                _ = try await panelEvents.wait("panel established") { $0.established(outgoing) }

                await TestPatience.eventually(within: .seconds(10), every: .milliseconds(50)) { frames.count >= 5 }
                let frame = try #require(client.video.latest, "no video frame arrived in 10 s")
                #expect(frames.count >= 5)
                #expect(frame.call == incoming.id)
                let mean = frame.meanRGB()
                // The fixture is (200, 30, 40); two lossy codecs later it is still clearly red.
                #expect(mean.red > 150 && mean.green < 80 && mean.blue < 90, "mean colour \(mean)")
                try await client.hangup(incoming.id)
                _ = try await clientEvents.wait("ended") { $0.ended(incoming.id) }
            }
        }
    }
}

final class FrameCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var frames = 0
    func add(_ frame: VideoFrame) { lock.withLock { frames += 1 } }
    var count: Int { lock.withLock { frames } }
}
