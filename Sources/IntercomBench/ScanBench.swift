import Foundation
import IntercomTestSupport

/// Issue 7: a SIP scan — 10 000 INVITEs from a caller matching no panel, at 200 a second (sipp,
/// UDP) — against `intercom daemon`: every one must get 403 and no event, and the daemon's memory
/// must stay flat. RSS is read after a 1 000-call warm-up and after the scan.
enum ScanBench {
    struct Result {
        var calls = 0
        var rate = 0
        var answered403 = 0
        var failed = 0
        var seconds: Double = .nan
        var rssBefore: Double = .nan
        var rssAfter: Double = .nan
        var cpuPercent: Double = .nan
        var callEvents = 0
    }

    static func run(intercom: String, work: String, calls: Int = 10_000, rate: Int = 200) async throws -> Result {
        var result = Result(calls: calls, rate: rate)
        let home = "\(work)/scan-home"
        let bench = try await BenchDaemon.start(intercom: intercom, home: home, config: """
            [sip]
            listen = udp:127.0.0.1:0
            unknown_callers = reject
            [panel bench]
            url = http://127.0.0.1:9
            match = sip:100001@
            [daemon]
            socket = \(home)/control.sock
            """)
        let daemon = bench.process
        defer { daemon.stop() }
        let scenario = "\(work)/scan.xml"
        // The scanner of the fault tests (FaultScenarios in IntercomTestSupport): one text for both.
        try FaultScenarios.scan().write(toFile: scenario, atomically: true, encoding: .utf8)
        _ = try sipp(scenario: scenario, port: bench.port, calls: 1000, rate: rate)
        try await Task.sleep(nanoseconds: 1_000_000_000)
        result.rssBefore = daemon.rssMB
        let cpu0 = ProcStat.cpuSeconds(pid: daemon.pid)
        let t0 = Date()
        let screen = try sipp(scenario: scenario, port: bench.port, calls: calls, rate: rate)
        result.seconds = Date().timeIntervalSince(t0)
        result.cpuPercent = (ProcStat.cpuSeconds(pid: daemon.pid) - cpu0) / result.seconds * 100
        try await Task.sleep(nanoseconds: 1_000_000_000)
        result.rssAfter = daemon.rssMB
        result.answered403 = count("Successful call", in: screen)
        result.failed = count("Failed call", in: screen)
        result.callEvents = daemon.allLines.filter { $0.contains("\"call_incoming\"") || $0.contains("\"call_ended\"") }.count
        return result
    }

    /// sipp's final screen (its stdout) after `calls` calls at `rate` a second.
    private static func sipp(scenario: String, port: String, calls: Int, rate: Int) throws -> String {
        try Spawn.run("/usr/bin/sipp", ["-sf", scenario, "127.0.0.1:\(port)", "-s", "door", "-i", "127.0.0.1", "-p", "0",
                                        "-m", String(calls), "-r", String(rate), "-timeout", "300s", "-nostdin"])
    }

    /// The cumulative column of a line of sipp's closing statistics, e.g. "Successful call | 0 | 10000".
    private static func count(_ label: String, in screen: String) -> Int {
        guard let line = screen.split(separator: "\n").last(where: { $0.contains(label) }) else { return -1 }
        return Int(line.split(separator: "|").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? -1
    }
}
