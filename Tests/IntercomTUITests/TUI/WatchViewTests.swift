import Foundation
@testable import IntercomEngine
@testable import IntercomTUI
import Testing
import IntercomImaging

/// `intercom watch` as a view of the peephole hub: what it counts, draws and says.
@Suite("Watch view")
struct WatchViewTests {
    static func frame(_ sequence: Int, jpeg: [UInt8]) throws -> PeepholeFrame {
        let image = try #require(RGBImage(width: 1, height: 1, pixels: [1, 2, 3]))
        return PeepholeFrame(panel: "p", call: nil, jpeg: Data(jpeg), image: image, sequence: sequence, fetchedAt: Date())
    }

    @Test func countsNewPicturesOnlyOnce() throws {
        var view = WatchView(WatchOptions(panel: "p", fps: 2))
        #expect(view.source == nil)
        var drawn = view.take(nil)
        #expect(!drawn)
        drawn = view.take(try Self.frame(1, jpeg: [1]))
        #expect(drawn)
        #expect(view.source?.id == "w1")
        // The same frame read again on the next turn is no new picture.
        drawn = view.take(try Self.frame(1, jpeg: [1]))
        #expect(!drawn)
        // A new fetch of an identical picture (a still doorway) is neither drawn nor counted.
        drawn = view.take(try Self.frame(2, jpeg: [1]))
        #expect(!drawn)
        drawn = view.take(try Self.frame(3, jpeg: [2]))
        #expect(drawn)
        #expect(view.shown == 2)
        #expect(view.source?.id == "w2")
    }

    @Test func theStatusLineSaysWhatItShows() throws {
        var view = WatchView(WatchOptions(panel: "porch", fps: 2))
        #expect(view.status(mode: .symbols, problem: nil) == " porch · symbols · 2 fps · #0 · q quits")
        view.take(try Self.frame(1, jpeg: [1]))
        #expect(view.status(mode: .kitty, problem: "panel porch is unreachable")
                == " porch · kitty · 2 fps · #1 · q quits · panel porch is unreachable")
        #expect(WatchView(WatchOptions(panel: "p", fps: 0.5)).status(mode: .ascii, problem: nil).contains("0.5 fps"))
    }

    @Test func qCtrlCAndCtrlDQuitOtherKeysDoNot() {
        for key in ["q", "Q", "\u{03}", "\u{04}"] { #expect(WatchView.quits(Int32(key.unicodeScalars.first!.value))) }
        for key in ["o", "a", "\u{0C}", " "] { #expect(!WatchView.quits(Int32(key.unicodeScalars.first!.value))) }
    }

    @Test func theHubKeepsTheLastProblemUntilAPictureArrives() throws {
        let hub = PeepholeHub()
        hub.report(panel: "p", problem: "unreachable")
        #expect(hub.problem(panel: "p") == "unreachable")
        #expect(hub.problem(panel: "q") == nil)
        hub.publish(try Self.frame(1, jpeg: [1]))
        #expect(hub.problem(panel: "p") == nil)
    }

    @Test func pictureFillsAllButTheStatusRow() {
        #expect(WatchView.area(cols: 80, rows: 24) == CellArea(cols: 80, rows: 23))
        #expect(WatchView.area(cols: 10, rows: 1).rows == 1)
        #expect(WatchView(WatchOptions(panel: "p", fps: 30)).pace == 20)
        #expect(WatchView(WatchOptions(panel: "p", fps: 2)).pace == 100)
    }
}
