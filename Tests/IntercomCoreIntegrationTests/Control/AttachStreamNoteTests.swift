import Foundation
import IntercomBase
import IntercomDaemon
@testable import IntercomCore
import IntercomImaging
import IntercomTestSupport
import Testing

extension AttachTests {
    /// An attached `watch` shows why the live stream is not playing, as its own-engine twin does
    /// (issue 23): the note comes with the panel's picture, a change of it sends the picture again,
    /// and it goes when the stream plays.
    @Test func aPanelsStreamNoteAndProblemReachTheScreen() async throws {
        let s = try await ControlSocketTests.setup()
        try await withCleanup({ await s.stop() }) {
            let link = try await Self.attach(s.path, screen: "watch")
            defer { link.detach() }
            let image = try #require(RGBImage(width: 64, height: 36, pixels: [UInt8](repeating: 120, count: 64 * 36 * 3)))
            let jpeg = try JPEG.encode(image)
            link.want(panel: "entrance", size: PixelSize(width: 64, height: 36), live: true)
            s.intercom.peephole.publish(PeepholeFrame(panel: "entrance", call: nil, jpeg: jpeg, image: image, sequence: 0,
                                                      fetchedAt: Date(), kind: .snapshot))
            #expect(await Self.eventually { link.latest(panel: "entrance") != nil })
            #expect(link.streamNote(panel: "entrance") == nil && link.problem(panel: "entrance") == nil)
            let note = "panel entrance: the live stream refused the user/password: showing snapshots"
            s.intercom.peephole.reportStream(panel: "entrance", note: note)
            s.intercom.peephole.report(panel: "entrance", problem: "snapshot: timed out")
            #expect(await Self.eventually { link.streamNote(panel: "entrance") == note })
            #expect(link.problem(panel: "entrance") == "snapshot: timed out")
            // The stream plays: the note and the problem go with its first frame.
            s.intercom.peephole.publish(PeepholeFrame(panel: "entrance", call: nil, jpeg: nil, image: image, sequence: 0,
                                                      fetchedAt: Date(), kind: .live))
            #expect(await Self.eventually { link.latest(panel: "entrance")?.kind == .live })
            #expect(link.streamNote(panel: "entrance") == nil && link.problem(panel: "entrance") == nil)
        }
    }
}
