@testable import IntercomTUI
import Testing

/// The kiosk at scale as a pure arrangement: tile size from the window, pages, ringing panels first
/// on every page, the name filter and the one-line list.
@Suite struct KioskViewTests {
    let panels = (1...64).map { "panel-" + ($0 < 10 ? "0" : "") + String($0) }

    @Test func fewPanelsAreTilesAsBefore() {
        let view = KioskView()
        let three = ["entrance", "gate", "barrier"]
        let got = view.arrange(three, ringing: [], cols: 160, rows: 48)
        #expect(got.tiles.map(\.panel) == three && got.lines.isEmpty && got.pages == 1)
        #expect(got.tiles.map(\.box) == Layout.tiles(count: 3, cols: 160, rows: 48))
    }

    @Test func sixtyFourPanelsPageWithTheRestListed() {
        var view = KioskView()
        let first = view.arrange(panels, ringing: [], cols: 160, rows: 48)
        // 160 − 27 list columns = 133 → 6 tiles across; 45 rows → 7 down.
        #expect(first.tiles.count == 42 && first.pages == 2 && first.page == 0)
        #expect(first.tiles.allSatisfy { $0.box.cols >= KioskView.minimumTile.cols - 1 && $0.box.rows >= KioskView.minimumTile.rows })
        #expect(first.lines.map(\.panel) == Array(panels[42...]), "the panels beyond the tiles are listed")
        #expect(first.lines.allSatisfy { $0.column == 134 })
        view.apply(.nextPage)
        let second = view.arrange(panels, ringing: [], cols: 160, rows: 48)
        #expect(second.page == 1 && second.tiles.map(\.panel) == Array(panels[42...]))
        #expect(second.lines.map(\.panel) == Array(panels[..<42].prefix(45)))
        view.apply(.nextPage)
        #expect(view.arrange(panels, ringing: [], cols: 160, rows: 48).page == 1, "paging past the end stays on the last")
    }

    @Test func aSmallWindowHasSmallerPagesOfTiles() {
        let got = KioskView().arrange(panels, ringing: [], cols: 80, rows: 24)
        #expect(got.tiles.count == 6 && got.pages == 11, "80×24: 53 columns → 2 across, 21 rows → 3 down")
        #expect(got.lines.count == 21, "as many lines as the body has rows")
    }

    @Test func tilesKeepTheirPlacesAndPanelsRingingElsewhereTakeTheLastTiles() {
        var view = KioskView()
        let ringing: Set = ["panel-50", "panel-07"]
        let quiet = view.arrange(panels, ringing: [], cols: 160, rows: 48)
        let first = view.arrange(panels, ringing: ringing, cols: 160, rows: 48)
        #expect(first.tiles.prefix(41).map(\.panel) == quiet.tiles.prefix(41).map(\.panel), "panel-07 rings where it is")
        #expect(first.tiles.map(\.box) == quiet.tiles.map(\.box))
        #expect(first.tiles.last?.panel == "panel-50", "a panel ringing on page 2 is seen on page 1")
        #expect(first.lines.first?.panel == "panel-42", "the tile it took is listed")
        view.apply(.nextPage)
        let second = view.arrange(panels, ringing: ringing, cols: 160, rows: 48)
        #expect(second.tiles.map(\.panel) == Array(panels[42...]) + ["panel-07"])
        #expect(!second.lines.contains { ringing.contains($0.panel) })
        let few = KioskView().arrange(["a", "b", "c"], ringing: ["c"], cols: 160, rows: 48)
        #expect(few.tiles.map(\.panel) == ["a", "b", "c"], "a ringing tile does not jump to the first slot")
        #expect(KioskView.live(panels, ringing: ["panel-50"]).contains("panel-50"))
        #expect(KioskView.live(panels, ringing: ["panel-50"]).count == KioskView.liveTiles)
    }

    @Test func theFilterMatchesNamesCaseInsensitivelyAndKeepsRingingOnes() {
        var view = KioskView()
        view.apply(.startFilter)
        for c in "PANEL-3" { view.apply(.type(c)) }
        let typing = view.arrange(panels, ringing: ["panel-12"], cols: 160, rows: 48)
        #expect(typing.tiles.map(\.panel) == ["panel-12"] + (30...39).map { "panel-\($0)" }, "a ringing panel is never filtered out")
        #expect(typing.shown == 11 && typing.lines.isEmpty)
        view.apply(.type("7"))
        view.apply(.keep)
        #expect(view.typing == nil && view.filter == "PANEL-37")
        #expect(view.arrange(panels, ringing: [], cols: 160, rows: 48).tiles.map(\.panel) == ["panel-37"])
        view.apply(.startFilter)
        view.apply(.backspace)
        #expect(view.filterShown == "PANEL-3")
        view.apply(.clear)
        #expect(view.filter == "" && view.typing == nil)
        #expect(view.arrange(panels, ringing: [], cols: 160, rows: 48).shown == 64)
    }

    @Test func listModeShowsEveryPanelOnALine() {
        var view = KioskView()
        view.apply(.toggleList)
        let got = view.arrange(panels, ringing: ["panel-64"], cols: 160, rows: 48)
        #expect(got.tiles.isEmpty && got.pages == 1 && got.lines.count == 64)
        #expect(got.lines.first?.panel == "panel-01" && got.lines.first?.row == 1)
        #expect(got.lines.last?.panel == "panel-64", "in list mode too every panel keeps its place")
        #expect(got.lines[45].column == KioskView.listWidth, "a second column after 45 rows")
        let small = view.arrange(panels, ringing: [], cols: 80, rows: 24)
        #expect(small.lines.count == 63 && small.pages == 2, "80×24: 3 columns of 21")
    }

    @Test func kioskKeys() {
        let key = { (code: Int32) in KeyAction.of(key: code, inCall: false, ringing: false, quitAsked: false, kiosk: true) }
        #expect(key(Int32(UInt8(ascii: "/"))) == .kiosk(.startFilter))
        #expect(key(Int32(UInt8(ascii: "v"))) == .kiosk(.toggleList))
        #expect(key(338) == .kiosk(.nextPage) && key(339) == .kiosk(.previousPage))
        #expect(KeyAction.of(key: Int32(UInt8(ascii: "/")), inCall: false, ringing: false, quitAsked: false, kiosk: false) == nil)
    }
}
