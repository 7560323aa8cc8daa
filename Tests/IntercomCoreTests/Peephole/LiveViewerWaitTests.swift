import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomCoreFakes
import IntercomImaging
import IntercomTestSupport
import Testing

/// A ringing call's live picture with no viewer (the daemon's case) sleeps on a signal from the
/// hub, not a poll: it begins one wait and nothing wakes it until a viewer says its size, which
/// starts the stream at once.
@Suite struct LiveViewerWaitTests {
    @Test func aLivePictureWithoutAViewerWaitsOnceAndWakesOnlyForTheViewer() async throws {
        let panel = CallPolicyTests.entrance { $0.peepholeFPS = 1 }
        try await EngineRig.run(panels: [panel]) { rig throws in
            let url = try #require(panel.rtspURL)
            let hub = rig.intercom.peephole
            let id = rig.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress)
            _ = try await rig.incoming(id)
            try await TestPatience.poll("the call's live picture waiting for a viewer") { hub.viewerWaitsPending(panel: "entrance") == 1 }
            // Ten seconds of the engine's clock (the snapshot peephole polls on it) and real time
            // for a poll to show itself: a 20 ms loop would have begun the wait again several times.
            // Absence is what is measured here, so this one wait is fixed on purpose.
            for _ in 0..<10 {
                try await rig.clock.waitForSleepers()
                rig.clock.advance(by: .seconds(1))
            }
            try await Task.sleep(for: .milliseconds(100))
            #expect(hub.viewerWaitsBegun.load(ordering: .relaxed) == 1, "the live picture woke without a viewer")
            #expect(hub.viewerWaitsPending(panel: "entrance") == 1)
            #expect(rig.video.streams.count == 0, "a stream opened with nobody to show it")

            hub.want(panel: "entrance", size: PixelSize(width: 160, height: 120))
            let stream = try await rig.video.stream(of: url)
            #expect(stream.requestedSize == PixelSize(width: 160, height: 120))
            #expect(hub.viewerWaitsPending(panel: "entrance") == 0)
            rig.phone.end(id)
            _ = try await rig.ended(id)
            try await rig.video.streams.wait(for: "the stream stopped") { $0 === stream && $0.isStopped }
        }
    }
}
