import Foundation
@testable import IntercomCore
import IntercomBase
import IntercomImaging
import IntercomPhoneTestSupport
import Testing

/// The journal keeps the call's best picture at answer: a live frame when the stream gives a
/// newer one at least as large as the panel's snapshot, else that snapshot.
@Suite("Journal picture: live frame or snapshot", .removesTestFolders)
struct JournalPictureChoiceTests {
    static let call = CallID("c1")

    static func frame(_ kind: PeepholeFrame.Kind, width: Int, height: Int, call: CallID?, at: Date) -> PeepholeFrame {
        PeepholeFrame(panel: "porch", call: call, jpeg: kind == .snapshot ? Data([0xFF, 0xD8]) : nil,
                      image: RGBImage(width: width, height: height), sequence: 0, fetchedAt: at, kind: kind)
    }

    /// The kind the journal takes after a snapshot of 640×480 and, 2 s later, a live frame of `live`.
    static func chosen(live: (width: Int, height: Int)) -> PeepholeFrame.Kind? {
        let hub = PeepholeHub()
        let now = Date()
        hub.publish(frame(.snapshot, width: 640, height: 480, call: call, at: now))
        hub.publish(frame(.live, width: live.width, height: live.height, call: call, at: now.addingTimeInterval(2)))
        return hub.journalPicture(panel: "porch", call: call)?.kind
    }

    @Test func aLargerNewerLiveFrameWins() {
        #expect(Self.chosen(live: (1280, 960)) == .live)
    }

    @Test func aStreamScaledForCellsLosesToTheSnapshot() {
        #expect(Self.chosen(live: (128, 96)) == .snapshot)
    }

    @Test func anotherCallsPicturesAreNotThisCalls() {
        let hub = PeepholeHub()
        hub.publish(Self.frame(.snapshot, width: 640, height: 480, call: CallID("other"), at: Date()))
        #expect(hub.journalPicture(panel: "porch", call: Self.call) == nil)
        // A kiosk tile's stream (no call) counts for the call ringing on that panel.
        hub.publish(Self.frame(.live, width: 640, height: 480, call: nil, at: Date()))
        #expect(hub.journalPicture(panel: "porch", call: Self.call)?.kind == .live)
    }
}
