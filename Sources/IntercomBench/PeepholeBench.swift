import Foundation
import IntercomCore
import IntercomSimulator

/// INVITE → first peephole frame decoded, and the daemon's CPU while the peephole runs at 3 fps,
/// against the simulated panel's HTTP server (Digest auth, 640×480 JPEGs) on loopback.
enum PeepholeBench {
    struct Result {
        var inviteToFirstFrame = Samples()
        var cpuPercentWhileRinging: Double = .nan
        var idleCPUPercent: Double = .nan
        var requestsPerSecond: Double = .nan
    }

    static func run(intercom: String, work: String, calls: Int, cpuWindow: Double) async throws -> Result {
        let server = SimulatedPanelHTTPServer(options: SimulatedPanelOptions())
        _ = try server.start()
        defer { server.stop() }
        let bench = try await BenchDaemon.start(intercom: intercom, home: "\(work)/peephole-home", config: """
            [sip]
            listen = udp:127.0.0.1:0
            ring_timeout = 600
            [panel bench]
            url = \(server.baseURL)
            user = admin
            password = admin
            match = sip:100001@
            peephole_fps = 3
            """)
        let daemon = bench.process
        defer { daemon.stop() }
        let caller = try await BenchDaemon.caller(work: work, name: "peephole-caller")
        defer { Task { await caller.stop() } }
        var result = Result()
        var cursor = bench.firstEvent
        for _ in 0..<calls {
            let sent = Date()
            let id = try await caller.call(bench.uri, video: false)
            guard let frame = await daemon.waitLine(containing: "\"peephole_frame\"", after: cursor) else { continue }
            result.inviteToFirstFrame.add(frame.time.timeIntervalSince(sent) * 1000)
            try await caller.hangup(id)
            guard let ended = await daemon.waitLine(containing: "\"call_ended\"", after: frame.index) else { continue }
            cursor = ended.index + 1
            try await Task.sleep(nanoseconds: 200_000_000)
        }
        // CPU: idle first, then one call ringing with the peephole running for the same window.
        try await Task.sleep(nanoseconds: 1_000_000_000)
        result.idleCPUPercent = await cpuPercent(daemon, window: cpuWindow)
        let id = try await caller.call(bench.uri, video: false)
        _ = await daemon.waitLine(containing: "\"peephole_frame\"", after: cursor)
        let before = server.requestCount("images_cgi")
        result.cpuPercentWhileRinging = await cpuPercent(daemon, window: cpuWindow)
        result.requestsPerSecond = Double(server.requestCount("images_cgi") - before) / cpuWindow
        try await caller.hangup(id)
        return result
    }

    static func cpuPercent(_ process: ChildProcess, window: Double) async -> Double {
        let cpu0 = process.cpuSeconds
        let t0 = Date()
        try? await Task.sleep(nanoseconds: UInt64(window * 1e9))
        return (process.cpuSeconds - cpu0) / Date().timeIntervalSince(t0) * 100
    }
}
