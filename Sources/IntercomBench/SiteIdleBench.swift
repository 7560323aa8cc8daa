import Foundation
import IntercomTestSupport

/// Issue 40: idle CPU of a site's desks beside lone desks, side by side in one run. Three desks of
/// one site (each holds its presence lock, LISTENs, beats every 10 s) and three lone desks, each following
/// the same stub panels' alarm streams (as the daemon at 1 … 128 panels does), all running at once,
/// so the machine's load is the same for each; CPU from their threads' schedstat over the same window.
enum SiteIdleBench {
    struct Figures {
        var panels: Int
        var window: Double
        /// Per desk of the site, % of one core.
        var site: [(desk: String, cpu: Double)] = []
        /// Per lone desk: as many as the site's, so each side's mean is as steady (one lone desk's
        /// figure alone moved by ±8 % between runs on this machine, more than the beat costs).
        var lones: [Double] = []
        var lone: Double { lones.isEmpty ? .nan : lones.reduce(0, +) / Double(lones.count) }

        var siteMean: Double { site.isEmpty ? .nan : site.map(\.cpu).reduce(0, +) / Double(site.count) }
        /// How much hotter a site's desk idles than a lone one (means), in % of the lone one's CPU.
        var excess: Double { (siteMean / lone - 1) * 100 }
    }

    static let desks = ["lobby", "garage", "security"]

    static func run(intercom: String, work: String, siteURL: String, panels: Int, settle: Double, window: Double) async throws -> Figures {
        let stub = try LoopbackHTTPStub(servers: panels)
        defer { stub.stop() }
        let panelConfig = (0..<panels).map { BenchConfig.panel("p\($0)", url: stub.baseURL($0), "rtsp = off") }.joined(separator: "\n")
        var running: [(name: String, daemon: BenchDaemon)] = []
        defer { for desk in running { desk.daemon.process.stop() } }
        // Each desk in a home of its own, its control socket in its own runtime folder (four daemons on one machine).
        func start(_ name: String, _ config: String) async throws -> BenchDaemon {
            let home = "\(work)/site-idle-\(name)"
            try FileManager.default.createDirectory(atPath: "\(home)/run", withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            return try await BenchDaemon.start(intercom: intercom, home: home, config: config,
                                               environment: ["XDG_RUNTIME_DIR": "\(home)/run"], timeout: 60)
        }
        for name in desks {
            running.append((name, try await start(name, BenchConfig.sip() + "\n" + panelConfig + "\n[site]\nurl = \(siteURL)\ndesk = \(name)\n")))
        }
        for index in desks.indices {
            running.append(("lone\(index)", try await start("lone\(index)", BenchConfig.sip() + "\n" + panelConfig)))
        }
        let deadline = Date().addingTimeInterval(30)
        while stub.openStreams < panels * running.count, Date() < deadline { try? await Task.sleep(nanoseconds: 50_000_000) }
        guard stub.openStreams >= panels * running.count else {
            throw BenchError("the desks opened \(stub.openStreams) of \(panels * running.count) alarm streams in 30 s")
        }
        try? await Task.sleep(nanoseconds: UInt64(settle * 1e9))
        let pids = running.map(\.daemon.process.pid)
        let before = pids.map { ProcStat.cpuSecondsFine(pid: $0) }
        let start = Date()
        try? await Task.sleep(nanoseconds: UInt64(window * 1e9))
        let after = pids.map { ProcStat.cpuSecondsFine(pid: $0) }
        let elapsed = Date().timeIntervalSince(start)
        let cpu = zip(before, after).map { ($1 - $0) / elapsed * 100 }
        var figures = Figures(panels: panels, window: elapsed)
        figures.site = zip(desks, cpu).map { ($0, $1) }
        figures.lones = Array(cpu[desks.count...])
        return figures
    }
}

/// `intercom-bench INTERCOM WORK CALLS --site-idle-only --site-url URL [--site-window SECONDS]`: run by
/// scripts/bench-site.sh, which starts the PostgreSQL the desks share.
func siteIdleSection() async throws {
    guard let url = optionValue("--site-url") else { throw BenchError("--site-idle-only needs --site-url postgresql://…") }
    let window = optionValue("--site-window").flatMap(Double.init) ?? 60
    let figures = try await SiteIdleBench.run(intercom: intercom, work: work, siteURL: url, panels: 64, settle: 10, window: window)
    line("Idle CPU: a site of 3 desks × \(figures.panels) panels beside 3 lone desks of the same \(figures.panels) panels, all six")
    line("daemons running at once (the same load on each), each following the stub panels' alarm streams; 10 s to settle,")
    line("then CPU (one core; the threads' /proc schedstat, to the ns) over the same \(f(figures.window, 0)) s. Load average after: \(BenchMachine.loadAverage()).")
    line()
    line("| desk | CPU |")
    line("|---|---|")
    for desk in figures.site { line("| site: \(desk.desk) | \(f(desk.cpu, 3)) % |") }
    for (index, cpu) in figures.lones.enumerated() { line("| lone desk \(index + 1) | \(f(cpu, 3)) % |") }
    line()
    line("A site's desk idles at \(f(figures.siteMean, 3)) % (mean of three) against a lone desk's \(f(figures.lone, 3)) % (mean of three): "
        + "\(f(figures.excess, 0)) % more (target ≤ 10 %: \(ok(figures.excess <= 10))).")
    line()
}
