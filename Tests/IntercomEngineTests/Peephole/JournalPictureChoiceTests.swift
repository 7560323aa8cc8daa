import Foundation
@testable import IntercomEngine
import IntercomBase
import IntercomImaging
import Testing

/// The journal keeps the call's best picture at answer: a live frame when the stream gives a
/// newer one at least as large as the panel's snapshot, else that snapshot.
@Suite("Journal picture: live frame or snapshot")
struct JournalPictureChoiceTests {
    static let call = CallID("c1")

    static func frame(_ kind: PeepholeFrame.Kind, width: Int, height: Int, call: CallID?, at: Date) -> PeepholeFrame {
        PeepholeFrame(panel: "porch", call: call, jpeg: kind == .snapshot ? Data([0xFF, 0xD8]) : nil,
                      image: RGBImage(width: width, height: height), sequence: 0, fetchedAt: at, kind: kind)
    }

    @Test func aLargerNewerLiveFrameWins() {
        let hub = PeepholeHub()
        let now = Date()
        hub.publish(Self.frame(.snapshot, width: 640, height: 480, call: Self.call, at: now))
        hub.publish(Self.frame(.live, width: 1280, height: 960, call: Self.call, at: now.addingTimeInterval(2)))
        #expect(hub.journalPicture(panel: "porch", call: Self.call)?.kind == .live)
    }

    @Test func aStreamScaledForCellsLosesToTheSnapshot() {
        let hub = PeepholeHub()
        let now = Date()
        hub.publish(Self.frame(.snapshot, width: 640, height: 480, call: Self.call, at: now))
        hub.publish(Self.frame(.live, width: 128, height: 96, call: Self.call, at: now.addingTimeInterval(2)))
        #expect(hub.journalPicture(panel: "porch", call: Self.call)?.kind == .snapshot)
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
