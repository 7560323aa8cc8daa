import Foundation
import IntercomBase
import IntercomSimulator

/// A new entry in the operator's event log → `operator_event` on `intercom daemon --events json`'s
/// stdout. The daemon copies the log every `log_interval` (1 s here, the least it takes); the figure
/// the target is for starts when the simulated operator first hands the entry out in `address/plog`
/// (the round that sees it), so it is the daemon's own part: the rest of its round (the entry's
/// preview picture fetched, the journal written) and the event out. From the entry's creation, the
/// wait for the next round comes on top (up to `log_interval`).
enum OperatorEventBench {
    struct Result {
        /// From `address/plog` first answering the entry to the event line read here.
        var afterSync = Samples()
        /// From the entry's creation to the event line.
        var fromEntry = Samples()
        var runs = 0
        var missed = 0
    }

    static func run(intercom: String, work: String, runs: Int = 20) async throws -> Result {
        // The operator and its logged-in user, as the open bench makes them (its panel is not used here).
        let session = try OperatorBench.Session(intercom: intercom, work: "\(work)/operator-event", addresses: 1)
        defer { session.stop() }
        let simulator = session.simulator
        // One entry before the daemon starts: its first round copies it without telling (history is not news).
        simulator.recordCall(answered: false)
        let config = BenchConfig.sip() + "[operator bench]\napi = \(simulator.baseURL)\nphone = \(simulator.options.testPhone)\nlog_interval = 1\n"
        let daemon = try await BenchDaemon.start(intercom: intercom, home: "\(work)/operator-event/home", config: config,
                                                 environment: ["XDG_STATE_HOME": "\(work)/operator-event/state"])
        defer { daemon.process.stop() }
        let baseline = Date().addingTimeInterval(10)
        while simulator.requestCount("address/plog") == 0 && Date() < baseline { try await Task.sleep(for: .milliseconds(20)) }
        guard simulator.requestCount("address/plog") > 0 else { throw BenchError("the daemon never read the operator's log") }

        var result = Result()
        result.runs = runs
        var after = daemon.firstEvent
        for i in 0..<(runs + 2) {
            // A random phase against the 1 s rounds, so the wait for the next round is not always the same.
            try await Task.sleep(for: .milliseconds(Int.random(in: 0..<1000)))
            let created = Date()
            let uuid = simulator.recordCall(answered: false)
            guard let seen = await daemon.process.waitLine(containing: uuid, after: after, timeout: 10),
                  seen.line.contains("\"operator_event\"") else {
                result.missed += 1
                continue
            }
            after = seen.index + 1
            // Two warm-up entries, not counted.
            guard i >= 2, let served = simulator.firstServed(uuid: uuid) else { continue }
            result.afterSync.add(seen.time.timeIntervalSince(served) * 1000)
            result.fromEntry.add(seen.time.timeIntervalSince(created) * 1000)
        }
        return result
    }
}
