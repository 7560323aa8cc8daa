import Foundation
import IntercomCore

/// Issue 10: a concierge desk's months in minutes. The daemon (journal, control socket and
/// peephole on, `auto_answer = on`) takes `calls` calls one after another from a liblinphone
/// caller; its private memory is read at checkpoints. What a call leaves behind shows as the
/// slope after the first 300 calls, when caches and arenas have reached their working size.
enum SoakBench {
    struct Checkpoint {
        var call: Int
        var privateKB: Double
        var rssMB: Double
    }

    struct Result {
        var calls = 0
        var handled = 0
        var seconds: Double = .nan
        var checkpoints: [Checkpoint] = []

        /// KB of private memory per call from the first checkpoint to the last.
        var slopeKB: Double {
            guard let first = checkpoints.first, let last = checkpoints.last, last.call > first.call else { return .nan }
            return (last.privateKB - first.privateKB) / Double(last.call - first.call)
        }
    }

    static let checkpoints = [300, 600, 1000]

    /// `rate`: at most this many calls a second (each call is answered, then hung up by the caller).
    static func run(intercom: String, work: String, calls: Int = 1000, rate: Double = 5) async throws -> Result {
        let server = SimulatedPanelHTTPServer(options: SimulatedPanelOptions())
        _ = try server.start()
        defer { server.stop() }
        let home = "\(work)/soak-home"
        let bench = try await BenchDaemon.start(intercom: intercom, home: home, config: """
            [sip]
            listen = udp:127.0.0.1:0
            [panel bench]
            url = \(server.baseURL)
            user = admin
            password = admin
            match = sip:100001@
            auto_answer = on
            peephole_fps = 3
            [daemon]
            socket = \(home)/control.sock
            [journal]
            path = \(work)/soak-journal
            """)
        let daemon = bench.process
        defer { daemon.stop() }
        let caller = try await BenchDaemon.caller(work: work, name: "soak-caller")
        var result = Result(calls: calls)
        var cursor = bench.firstEvent
        let start = Date()
        let marks = Set(checkpoints.filter { $0 <= calls } + [calls])
        for index in 1...calls {
            let slot = Date()
            let id = try await caller.call(bench.uri, video: false)
            if let answered = await daemon.waitLine(containing: "\"call_answered\"", after: cursor, timeout: 5) {
                try? await caller.hangup(id)
                if let ended = await daemon.waitLine(containing: "\"call_ended\"", after: answered.index, timeout: 5) {
                    result.handled += 1
                    cursor = ended.index + 1
                }
            } else {
                try? await caller.hangup(id)
            }
            if marks.contains(index) {
                // Let the last call's release and its journal picture (1.5 s wait for video) finish.
                try await Task.sleep(nanoseconds: 2_500_000_000)
                result.checkpoints.append(Checkpoint(call: index, privateKB: ProcStat.privateKB(pid: daemon.pid),
                                                     rssMB: daemon.rssMB))
            }
            let wait = 1 / rate - Date().timeIntervalSince(slot)
            if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
        }
        result.seconds = Date().timeIntervalSince(start)
        await caller.stop()
        return result
    }
}
