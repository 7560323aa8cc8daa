import Foundation
import IntercomBase
import IntercomCore
import IntercomSimulator

/// Issue 27: the light commands as a user runs them (process start included). `intercom log
/// --since 1d` over a 100 000-entry journal, and `intercom open PANEL` beside curl making the same
/// Digest-authenticated `intercom_cgi?action=maindoor` request to the simulated panel in this
/// process, interleaved so both see the same load.
enum LightCommandBench {
    struct Result {
        var log = Samples()
        var logCPU = Samples()
        var logRows = 0
        var open = Samples()
        var curl = Samples()
        var openCPU = Samples()
        var curlCPU = Samples()
        var doorRequests = 0
        var runs = 0
        /// Shared libraries `intercom` maps (from `ldd`): what every light command binds at start.
        var libraries = 0
        var loadAfter = ""
    }

    /// A journal of `count` calls spread over the 30 days before now, one in five missed.
    static func bigJournal(at directory: String, count: Int = 100_000) throws {
        let journal = try Journal(directory: directory)
        let now = Date()
        let span = 30.0 * 86_400
        for i in 0..<count {
            let at = now.addingTimeInterval(-span + span * Double(i) / Double(count))
            let row = try journal.callStarted(panel: "bench", call: CallID("c\(i)"), caller: "sip:100001@127.0.0.1", at: at)
            try journal.callEnded(row, outcome: i % 5 == 0 ? "missed" : "remote_hangup", duration: 12, at: at.addingTimeInterval(12))
        }
    }

    static func run(intercom: String, work: String, runs: Int = 20, warmups: Int = 3) async throws -> Result {
        var result = Result()
        result.runs = runs
        let home = "\(work)/light"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let environment = ["PATH": "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "XDG_STATE_HOME": "\(home)/state"]
        result.libraries = try Spawn.run("/usr/bin/ldd", [intercom]).split(separator: "\n").count

        let journal = "\(home)/journal"
        try bigJournal(at: journal)
        let logConfig = "\(home)/log.ini"
        try "[journal]\npath = \(journal)\n".write(toFile: logConfig, atomically: true, encoding: .utf8)
        for i in 0..<(runs + warmups) {
            let run = try TimedRun.run(intercom, ["log", "--since", "1d", "--config", logConfig], environment: environment, scratch: home)
            guard run.status == 0 else { throw BenchError("intercom log exited \(run.status)") }
            if i >= warmups {
                result.log.add(run.milliseconds)
                result.logCPU.add(run.cpuMilliseconds)
            }
            result.logRows = run.stdout.split(separator: "\n").count - 1
        }

        let panel = SimulatedPanelHTTPServer(options: SimulatedPanelOptions())
        _ = try panel.start()
        defer { panel.stop() }
        let openConfig = "\(home)/open.ini"
        // `model = dks`: no systeminfo request first, so both sides make the one door request.
        try BenchConfig.panel("bench", url: panel.baseURL, "model = dks").write(toFile: openConfig, atomically: true, encoding: .utf8)
        chmod(openConfig, 0o600)
        let curlArguments = ["-q", "-s", "--digest", "-u", "admin:admin", "-o", "/dev/null", "-w", "%{http_code}",
                             "\(panel.baseURL)/cgi-bin/intercom_cgi?action=maindoor"]
        for i in 0..<(runs + warmups) {
            let ours = { () throws -> TimedRun in
                let run = try TimedRun.run(intercom, ["open", "bench", "--config", openConfig], environment: environment, scratch: home)
                guard run.status == 0 else { throw BenchError("intercom open exited \(run.status): \(run.stdout.prefix(200))") }
                return run
            }
            let curl = { () throws -> TimedRun in
                let run = try TimedRun.run("/usr/bin/curl", curlArguments, environment: environment, scratch: home)
                guard run.status == 0, run.stdout == "200" else { throw BenchError("curl exited \(run.status): \(run.stdout)") }
                return run
            }
            // Alternating the order cancels a first-runner's advantage.
            let pair: (TimedRun, TimedRun)
            if i % 2 == 0 {
                pair = (try ours(), try curl())
            } else {
                let first = try curl()
                pair = (try ours(), first)
            }
            if i >= warmups {
                result.open.add(pair.0.milliseconds)
                result.openCPU.add(pair.0.cpuMilliseconds)
                result.curl.add(pair.1.milliseconds)
                result.curlCPU.add(pair.1.cpuMilliseconds)
            }
        }
        result.doorRequests = panel.requestCount("intercom_cgi?action=maindoor")
        result.loadAfter = BenchMachine.loadAverage()
        return result
    }
}
