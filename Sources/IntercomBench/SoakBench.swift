import Foundation
import IntercomCore
import IntercomSimulator

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

        /// KB of private memory per call from call `from` on: the least-squares slope over every
        /// checkpoint, since one reading can be a few hundred KB off (malloc arenas, SQLite's cache).
        func slopeKB(from: Int = 300) -> Double {
            let points = checkpoints.filter { $0.call >= from }
            guard points.count >= 2 else { return .nan }
            let n = Double(points.count)
            let meanX = points.reduce(0) { $0 + Double($1.call) } / n
            let meanY = points.reduce(0) { $0 + $1.privateKB } / n
            let sxy = points.reduce(0) { $0 + (Double($1.call) - meanX) * ($1.privateKB - meanY) }
            let sxx = points.reduce(0) { $0 + (Double($1.call) - meanX) * (Double($1.call) - meanX) }
            return sxx > 0 ? sxy / sxx : .nan
        }

        func at(_ call: Int) -> Checkpoint? { checkpoints.first { $0.call == call } }
    }

    /// These checkpoints are reported (those the soak reaches); the others only feed the slope.
    static let reported = [300, 600, 1000, 2500]
    static let every = 100

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
        let marks = Set(stride(from: every, through: calls, by: every)).union([calls])
        for index in 1...calls {
            let slot = Date()
            if let next = try await bench.answeredCall(from: caller, after: cursor) {
                result.handled += 1
                cursor = next
            }
            if marks.contains(index) {
                // Let the last call's release and its journal picture (1.5 s wait for video) finish,
                // then take the lowest of a few readings: what stays, not what is in flight.
                try await Task.sleep(nanoseconds: 2_000_000_000)
                var lowest = Double.infinity
                for _ in 0..<5 {
                    lowest = min(lowest, ProcStat.privateKB(pid: daemon.pid))
                    try await Task.sleep(nanoseconds: 200_000_000)
                }
                result.checkpoints.append(Checkpoint(call: index, privateKB: lowest, rssMB: daemon.rssMB))
            }
            let wait = 1 / rate - Date().timeIntervalSince(slot)
            if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
        }
        result.seconds = Date().timeIntervalSince(start)
        await caller.stop()
        return result
    }
}
