import Foundation
import IntercomCore
import IntercomBase

/// Issue 6: 60 calls at 2 a second auto-answered and ended by the daemon (journal and control socket on),
/// RSS at call 10 and call 60; and `intercom log --since 1d` over a 100 000-entry journal.
enum DaemonLoadBench {
    struct Result {
        var handled = 0
        var calls = 0
        var rssAt10: Double = .nan
        var rssAt60: Double = .nan
        var logSinceDay = Samples()
        var logEntries = 0
    }

    static func run(intercom: String, work: String) async throws -> Result {
        var result = Result()
        let journalDir = "\(work)/load-journal"
        let bench = try await BenchDaemon.start(intercom: intercom, home: "\(work)/load-home", config: """
            [sip]
            listen = udp:127.0.0.1:0
            [panel bench]
            url = http://127.0.0.1:9
            match = sip:100001@
            auto_answer = on
            [daemon]
            socket = \(work)/load-home/control.sock
            [journal]
            path = \(journalDir)
            """)
        let daemon = bench.process
        defer { daemon.stop() }
        let caller = try await BenchDaemon.caller(work: work, name: "load-caller")
        defer { Task { await caller.stop() } }
        var cursor = bench.firstEvent
        result.calls = 60
        for index in 0..<result.calls {
            let slot = Date()
            if let next = try await bench.answeredCall(from: caller, after: cursor) {
                result.handled += 1
                cursor = next
            }
            if index == 9 { result.rssAt10 = daemon.rssMB }
            if index == result.calls - 1 { result.rssAt60 = daemon.rssMB }
            let wait = 0.5 - Date().timeIntervalSince(slot)
            if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
        }
        daemon.stop()

        // A journal of 100 000 calls over 30 days, then `intercom log --since 1d` as a user runs it.
        let big = "\(work)/big-journal"
        try LightCommandBench.bigJournal(at: big)
        let config = "\(work)/big-journal.ini"
        try "[journal]\npath = \(big)\n".write(toFile: config, atomically: true, encoding: .utf8)
        for _ in 0..<10 {
            let t0 = Date()
            let out = try Spawn.run(intercom, ["log", "--since", "1d", "--config", config])
            result.logSinceDay.add(Date().timeIntervalSince(t0) * 1000)
            result.logEntries = out.split(separator: "\n").count - 1
        }
        return result
    }
}
