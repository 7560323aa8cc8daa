import Foundation
@testable import IntercomCore
@testable import IntercomTUI
import Testing
import IntercomImaging
import IntercomBase

/// `intercom watch` as a view of the peephole hub: what it counts, draws and says.
@Suite("Watch view")
struct WatchViewTests {
    static func frame(_ sequence: Int, jpeg: [UInt8]) throws -> PeepholeFrame {
        let image = try #require(RGBImage(width: 1, height: 1, pixels: [1, 2, 3]))
        return PeepholeFrame(panel: "p", call: nil, jpeg: Data(jpeg), image: image, sequence: sequence, fetchedAt: Date())
    }

    static func live(_ sequence: Int) throws -> PeepholeFrame {
        let image = try #require(RGBImage(width: 1, height: 1, pixels: [1, 2, 3]))
        return PeepholeFrame(panel: "p", call: nil, jpeg: nil, image: image, sequence: sequence, fetchedAt: Date(), kind: .live)
    }

    /// Takes the frame and draws it if it is new; returns whether it was drawn.
    static func show(_ view: inout WatchView, _ frame: PeepholeFrame?, at now: Date = Date()) -> Bool {
        guard view.take(frame), let source = view.source(at: now), source.id != view.frame.map({ "w\($0.sequence)" }) else {
            return false
        }
        view.drew(id: source.id, at: now)
        return true
    }

    @Test func countsNewPicturesOnlyOnce() throws {
        var view = WatchView(WatchOptions(panel: "p"))
        #expect(view.source() == nil)
        #expect(!Self.show(&view, nil))
        #expect(Self.show(&view, try Self.frame(1, jpeg: [1])))
        #expect(view.source()?.id == "w1")
        // The same frame read again on the next turn is no new picture.
        #expect(!Self.show(&view, try Self.frame(1, jpeg: [1])))
        // A new fetch of an identical snapshot (a still doorway) is neither drawn nor counted.
        #expect(!Self.show(&view, try Self.frame(2, jpeg: [1])))
        #expect(Self.show(&view, try Self.frame(3, jpeg: [2])))
        #expect(view.shown == 2)
        #expect(view.source()?.id == "w3")
    }

    @Test func liveFramesAreNeverDroppedAsDuplicates() throws {
        var view = WatchView(WatchOptions(panel: "p"))
        #expect(Self.show(&view, try Self.frame(1, jpeg: [1])))
        // Live frames carry no JPEG: each new one is drawn, however alike.
        for sequence in 2...30 { #expect(Self.show(&view, try Self.live(sequence))) }
        #expect(view.shown == 30)
    }

    @Test func fpsCapsTheDrawnRate() throws {
        var view = WatchView(WatchOptions(panel: "p", fps: 5))
        let start = Date()
        var drawn = 0
        // 25 frames a second for 2 s, drawn at most 5 a second.
        for i in 0..<50 where Self.show(&view, try Self.live(i + 1), at: start.addingTimeInterval(Double(i) * 0.04)) {
            drawn += 1
        }
        #expect(drawn >= 9 && drawn <= 11, "\(drawn)")
    }

    @Test func theStatusLineSaysWhatItShows() throws {
        var view = WatchView(WatchOptions(panel: "porch"))
        #expect(view.status(mode: .symbols, problem: nil) == " porch · symbols · snapshots 0.0 fps · #0 · q quits")
        let start = Date()
        _ = Self.show(&view, try Self.frame(1, jpeg: [1]), at: start)
        #expect(view.status(mode: .kitty, problem: "panel porch is unreachable",
                            streamNote: "live stream refused the user/password: showing snapshots", at: start)
                == " porch · kitty · snapshots 0.0 fps · #1 · q quits · live stream refused the user/password: showing snapshots"
                + " · panel porch is unreachable")
        for i in 1...25 { _ = Self.show(&view, try Self.live(i + 1), at: start.addingTimeInterval(Double(i) * 0.04)) }
        #expect(view.status(mode: .symbols, problem: nil, at: start.addingTimeInterval(1))
                == " porch · symbols · live 25.0 fps · #26 · q quits")
        // The hub clears the note with every live frame: one still there means the stream went down
        // after the last picture, and the viewer must hear it before a snapshot replaces that picture.
        let down = view.status(mode: .symbols, problem: nil, streamNote: "live stream stopped: showing snapshots",
                               at: start.addingTimeInterval(1))
        #expect(down == " porch · symbols · live 25.0 fps · #26 · q quits · live stream stopped: showing snapshots")
        #expect(WatchView(WatchOptions(panel: "p", fps: 0.5)).status(mode: .ascii, problem: nil).contains("(max 0.5)"))
    }

    /// The stream's trouble fits the line: at 80 columns the counters shrink and go before the
    /// note does, and the URL and the key to fix stay whole (issue 25).
    @Test func aStreamNoteFitsTheLine() throws {
        var view = WatchView(WatchOptions(panel: "entrance"))
        _ = Self.show(&view, try Self.frame(1, jpeg: [1]), at: Date())
        let note = "rtsp://192.168.1.50:554/av0_0: connection refused; fix [panel entrance] rtsp: showing snapshots"
        let wide = view.status(mode: .symbols, problem: nil, streamNote: note, width: 159)
        #expect(wide.hasSuffix(" · q quits · \(note)") && wide.hasPrefix(" entrance · symbols · snapshots"), "\(wide)")
        let short = String(note.dropLast(": showing snapshots".count))
        #expect(view.status(mode: .symbols, problem: nil, streamNote: note, width: 110) == " entrance · snapshots #1 · \(short)")
        #expect(view.status(mode: .symbols, problem: nil, streamNote: note, width: 99) == " entrance · \(short)")
        // 80 columns: the note alone, its URL and key whole.
        let narrow = view.status(mode: .symbols, problem: nil, streamNote: note, width: 79)
        #expect(narrow == " \(short)" && narrow.count <= 79, "\(narrow)")
        // Narrower still: cut at a word, with an ellipsis.
        let tiny = view.status(mode: .symbols, problem: nil, streamNote: note, width: 40)
        #expect(tiny.count <= 40 && tiny.hasSuffix("…") && !tiny.contains("  "), "\(tiny)")
        // Without trouble the line is as before, whatever the width.
        #expect(view.status(mode: .symbols, problem: nil, width: 20) == " entrance · symbols · snapshots 0.0 fps · #1 · q quits")
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
        #expect(WatchView(WatchOptions(panel: "p", fps: 30)).pace == 16)
        #expect(WatchView(WatchOptions(panel: "p", fps: 2)).pace == 100)
        #expect(WatchView(WatchOptions(panel: "p")).pace == 100)
        #expect(WatchOptions(panel: "p").snapshotFPS == 2)
        #expect(WatchOptions(panel: "p", fps: 5).snapshotFPS == 5)
    }
}
