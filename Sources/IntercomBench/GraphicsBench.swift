import Foundation
import IntercomCore
import IntercomSimulator
import IntercomTUI
import IntercomImaging

/// "Terminal graphics (issue 4)": render costs and bytes on the simulator's 640×480 scene,
/// side by side with the `chafa` CLI on the same JPEG in the same run.
enum GraphicsBench {
    struct Figures {
        var fast160 = Samples(), fast80 = Samples(), chafa160 = Samples(), chafa80 = Samples(), sixel = Samples()
        var cli = Samples()
        var sixelBytes = 0, fullBytes = 0, diffBytes = 0, nextFrameBytes = 0
        var sustainedFPS = 0.0, sustainedCPU = 0.0
        var cliNote = ""
        /// Ours against the `chafa` CLI, per mode, on the same JPEG at the same cell size.
        var modes: [ModeRow] = []
    }

    struct ModeRow {
        var name: String
        var cells: String
        var ours = Samples(), chafa = Samples()
        var oursBytes = 0, chafaBytes = 0
    }

    static let cell = PixelSize(width: 10, height: 20)

    static func run(work: String, runs: Int = 25) async throws -> Figures {
        var f = Figures()
        let frames = (0..<runs + 1).map { SyntheticFrame.render(frame: $0, label: "BENCH", time: "12:00:00") }
        let jpegs = try frames.map { try JPEG.encode($0, quality: 85) }
        let path = (work as NSString).appendingPathComponent("graphics-bench.jpg")
        try jpegs[0].write(to: URL(fileURLWithPath: path))

        func time(_ samples: inout Samples, _ body: () throws -> Void) rethrows {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            samples.add(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        // Decode included, fresh renderer state per frame so every frame is a full render.
        for (engine, cols, rows) in [(ImageRenderer.SymbolEngine.fast, 160, 48), (.fast, 80, 24), (.chafa, 160, 48), (.chafa, 80, 24)] {
            let renderer = ImageRenderer(mode: .symbols, depth: .truecolor, symbolEngine: engine)
            let area = CellArea(cols: cols, rows: rows)
            var s = Samples()
            for i in 0..<runs {
                renderer.reset()
                try time(&s) {
                    let image = try JPEG.decode(jpegs[i], covering: renderer.decodeSize(for: area, cellPixels: cell))
                    _ = renderer.render(image: image, into: area, cellPixels: cell)
                }
            }
            switch (engine, cols) {
            case (.fast, 160): f.fast160 = s
            case (.fast, _): f.fast80 = s
            case (_, 160): f.chafa160 = s
            default: f.chafa80 = s
            }
        }
        // Sixel of the 640×480 picture at its own size: 64×24 cells of 10×20 px.
        let sixel = ImageRenderer(mode: .sixel, depth: .truecolor)
        for i in 0..<runs {
            sixel.reset()
            try time(&f.sixel) {
                let image = try JPEG.decode(jpegs[i])
                f.sixelBytes = sixel.render(image: image, into: CellArea(cols: 64, rows: 24), cellPixels: cell).bytes.count
            }
        }
        // Bytes: full redraw vs a frame where under 10 % changes, and vs the next simulator frame.
        let area = CellArea(cols: 160, rows: 48)
        let r = ImageRenderer(mode: .symbols, depth: .truecolor)
        f.fullBytes = r.render(image: frames[10], into: area, cellPixels: cell).bytes.count
        var changed = frames[10]
        for y in 200..<300 { for x in 100..<260 { changed.pixels[(y * changed.width + x) * 3] ^= 0x80 } }
        f.diffBytes = r.render(image: changed, into: area, cellPixels: cell).bytes.count
        _ = r.render(image: frames[10], into: area, cellPixels: cell)
        f.nextFrameBytes = r.render(image: frames[11], into: area, cellPixels: cell).bytes.count

        // Sustained: 25 fps for 4 s, decode + render + diff each frame; CPU from getrusage.
        let video = ImageRenderer(mode: .symbols, depth: .truecolor)
        let clock = ContinuousClock()
        let begin = clock.now
        let cpu0 = cpuSeconds()
        var drawn = 0
        let slot = Duration.milliseconds(40)
        while clock.now - begin < .seconds(4) {
            let due = begin.advanced(by: slot * drawn)
            if due > clock.now { try await Task.sleep(until: due, clock: clock) }
            let image = try JPEG.decode(jpegs[drawn % jpegs.count], covering: video.decodeSize(for: area, cellPixels: cell))
            _ = video.render(image: image, into: area, cellPixels: cell)
            drawn += 1
        }
        let wall = (clock.now - begin)
        let wallSeconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
        f.sustainedFPS = Double(drawn) / wallSeconds
        f.sustainedCPU = (cpuSeconds() - cpu0) / wallSeconds * 100

        // Per mode, ours (decode included) against the chafa CLI (spawn and decode included).
        let chafaPath = ["/usr/bin/chafa", "/usr/local/bin/chafa"].first(where: FileManager.default.isExecutableFile(atPath:))
        for (mode, chafaFormat, cols, rows) in [(GraphicsMode.symbols, "symbols", 160, 48), (.sixel, "sixels", 64, 24), (.kitty, "kitty", 64, 24)] {
            var row = ModeRow(name: mode.rawValue, cells: "\(cols)×\(rows)")
            let renderer = ImageRenderer(mode: mode, depth: .truecolor)
            let area = CellArea(cols: cols, rows: rows)
            for i in 0..<runs {
                renderer.reset()
                try time(&row.ours) {
                    let image = try JPEG.decode(jpegs[i], covering: renderer.decodeSize(for: area, cellPixels: cell))
                    let bytes = renderer.render(image: image, into: area, cellPixels: cell).bytes.count
                    // Bytes of the JPEG the CLI draws (the first); the others are other pictures.
                    if i == 0 { row.oursBytes = bytes }
                }
            }
            if let chafaPath {
                for _ in 0..<max(5, runs / 2) {
                    var out = ""
                    try time(&row.chafa) {
                        out = try Spawn.run(chafaPath, ["--size", "\(cols)x\(rows)", "-f", chafaFormat, "--font-ratio", "1/2", path])
                    }
                    row.chafaBytes = out.utf8.count
                }
            }
            f.modes.append(row)
        }
        // The chafa CLI on the same JPEG.
        if let chafa = chafaPath {
            for _ in 0..<max(5, runs / 2) {
                let p = Process()
                p.executableURL = URL(fileURLWithPath: chafa)
                p.arguments = ["--size", "160x48", "-f", "symbols", path]
                p.standardOutput = FileHandle.nullDevice
                p.standardError = FileHandle.nullDevice
                try time(&f.cli) { try p.run(); p.waitUntilExit() }
            }
        } else {
            f.cliNote = "chafa CLI not installed (scripts/install-deps.sh adds it)"
        }
        return f
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
