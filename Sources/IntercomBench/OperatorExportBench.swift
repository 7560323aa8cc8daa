import Foundation
import IntercomBase

/// Issue 26: `intercom export` of a 60 s piece of the simulated operator's camera archive
/// (Flussonic's `archive-FROM-DURATION.mp4`, which the simulator muxes from its kept 1 s segments
/// on each request) beside `curl` fetching the same URL, interleaved pair by pair with the order
/// alternating. Both ask for the same window, so the server's muxing is in both times. Ours finds the
/// camera's address and token with `cctv/all` in the uncounted first pair and keeps them in the
/// operator's token file, as any export does; the counted pairs make one request each side.
enum OperatorExportBench {
    struct Result {
        /// Wall and CPU time of each side.
        var export = OperatorBench.Pair()
        var ratios = Samples()
        /// `intercom doors` with nothing configured, in the same rounds: start-up and config alone.
        var startup = Samples()
        var bytes = 0
        var curlBytes = 0
        var runs = 0
        /// How long the bench waited for the camera to keep a whole minute.
        var filled = 0.0
        var loadBefore = ""
        var loadAfter = ""
    }

    static let pieceSeconds = 60

    static func run(intercom: String, work: String, runs: Int = 20) async throws -> Result {
        var result = Result()
        result.runs = runs
        result.loadBefore = BenchMachine.loadAverage()
        let session = try OperatorBench.Session(intercom: intercom, work: "\(work)/operator-export", addresses: 1)
        defer { session.stop() }
        let camera = session.simulator.baseURL.replacingOccurrences(of: "/mobile", with: "/cctv/1")
        let token = session.simulator.cameraToken
        // The first request starts the camera; it keeps a minute (and a little) of 1 s segments.
        _ = try TimedRun.run(OperatorBench.curl, ["-q", "-s", "-o", "/dev/null", "\(camera)/index.m3u8?token=\(token)"],
                             environment: session.environment, scratch: session.directory)
        let started = Date()
        while true {
            let from = Int(Date().timeIntervalSince1970) - pieceSeconds - 2
            let kept = try TimedRun.run(OperatorBench.curl, ["-q", "-s", "\(camera)/index-\(from)-\(pieceSeconds).m3u8?token=\(token)"],
                                        environment: session.environment, scratch: session.directory)
            // Segments of about a second each (`#EXTINF:1.108,`): the window is kept once they add
            // up to the minute but for the edges.
            let covered = kept.stdout.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }
                .compactMap { Double($0.dropFirst("#EXTINF:".count).prefix { $0 != "," }) }.reduce(0, +)
            if covered >= Double(pieceSeconds - 1) { break }
            guard Date().timeIntervalSince(started) < 120 else {
                throw BenchError("the simulated camera kept no \(pieceSeconds) s in 120 s: \(kept.stdout.prefix(200))")
            }
            try await Task.sleep(for: .seconds(1))
        }
        result.filled = Date().timeIntervalSince(started)
        let stamp = ISO8601DateFormatter()
        let empty = "\(session.directory)/empty.ini"
        try "".write(toFile: empty, atomically: true, encoding: .utf8)
        var emptyEnvironment = session.environment
        emptyEnvironment["INTERCOM_CONFIG"] = empty
        let oursFile = "\(session.directory)/export.mp4", curlFile = "\(session.directory)/curl.mp4"
        for i in 0..<(runs + 1) {
            // The newest whole minute the camera keeps, the same for both sides of the pair.
            let from = Int(Date().timeIntervalSince1970) - pieceSeconds - 2
            let ours = ["export", "bench:cam:1", "--from", stamp.string(from: Date(timeIntervalSince1970: TimeInterval(from))),
                        "--to", stamp.string(from: Date(timeIntervalSince1970: TimeInterval(from + pieceSeconds))), "-o", oursFile]
            let curl = ["-q", "-s", "-f", "-o", curlFile, "-w", "%{http_code}",
                        "\(camera)/archive-\(from)-\(pieceSeconds).mp4?token=\(token)"]
            let pair = try OperatorBench.interleaved(first: i % 2 == 0, {
                try session.timed(intercom, ours, expect: "bench:cam:1")
            }, {
                try session.timed(OperatorBench.curl, curl, expect: "200")
            })
            let startup = try TimedRun.run(intercom, ["doors"], environment: emptyEnvironment, scratch: session.directory)
            // The first pair warms the caches (and the server's GStreamer) up: not counted.
            guard i > 0 else { continue }
            result.export.add(pair)
            result.startup.add(startup.milliseconds)
            result.ratios.add(pair.ours.milliseconds / pair.curl.milliseconds)
            result.bytes = (try? FileManager.default.attributesOfItem(atPath: oursFile)[.size] as? Int) ?? 0
            result.curlBytes = (try? FileManager.default.attributesOfItem(atPath: curlFile)[.size] as? Int) ?? 0
        }
        result.loadAfter = BenchMachine.loadAverage()
        return result
    }
}

func exportSection() async throws {
    line("## Archive export (issue 26)")
    line()
    let e = try await OperatorExportBench.run(intercom: intercom, work: work)
    line("Load average (1, 5, 15 min) before: \(e.loadBefore), after: \(e.loadAfter).")
    line()
    line("`intercom export bench:cam:1 --from T --to T+60s -o FILE` against the simulated operator's camera on loopback")
    line("(its Flussonic-style `archive-FROM-60.mp4`, muxed by the simulator from its kept 1 s segments on each request;")
    line("the camera was started and the bench waited \(f(e.filled, 0)) s until it kept a whole minute), beside `curl -o FILE`")
    line("of the same URL (same window, same token), \(e.runs) pairs after one warm-up pair, interleaved with the order")
    line("alternating; wall time from spawn to exit. Ours asked `cctv/all` for the camera's address and token in the uncounted")
    line("first pair and kept them (as every export does), so each counted run makes the one request curl makes.")
    line()
    line("| measure | `intercom export` median | `curl` median | ours / curl, median of pairs (max) | target | |")
    line("|---|---|---|---|---|---|")
    line("| 60 s piece (\(ProgressLineBytes.text(e.bytes)); curl's \(ProgressLineBytes.text(e.curlBytes))) | \(f(e.export.ours.median)) ms | "
         + "\(f(e.export.curl.median)) ms | \(f(e.ratios.median, 2))× (\(f(e.ratios.percentile(100), 2))×) | ≤ 1.2× | \(ok(e.ratios.median <= 1.2)) |")
    line()
    line("Of the same runs, median: CPU (user + system) \(f(e.export.oursCPU.median)) ms ours, \(f(e.export.curlCPU.median)) ms curl's; "
         + "`intercom doors` with nothing configured (start-up and config alone, run in the same rounds) \(f(e.startup.median)) ms.")
    line()
}

/// A byte count as the table shows it.
enum ProgressLineBytes {
    static func text(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
}
