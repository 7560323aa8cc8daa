import Foundation
import IntercomCore

/// INVITE → `call_incoming`, and answer → media running, against `intercom daemon` in its own process.
enum PhoneBench {
    struct Result {
        var inviteToIncoming = Samples()
        var answerToMedia = Samples()
        var failures = 0
    }

    /// `gap`: seconds between one call's end and the next INVITE. 0.1 s keeps the daemon's phone thread
    /// in its 2 s after-activity window (iterating every 50 ms); 3 s lets it fall to its quiet 500 ms
    /// pace first, so the INVITE shows whether a ring waits for that timer (IteratePace).
    static func run(intercom: String, work: String, calls: Int, gap: Double = 0.1) async throws -> Result {
        let bench = try await BenchDaemon.start(intercom: intercom, home: "\(work)/phone-home", config: """
            [sip]
            listen = udp:127.0.0.1:0
            [panel bench]
            url = http://127.0.0.1:9
            match = sip:100001@
            auto_answer = on
            """)
        let daemon = bench.process
        defer { daemon.stop() }
        let caller = try await BenchDaemon.caller(work: work, name: "caller")
        defer { Task { await caller.stop() } }
        var result = Result()
        var cursor = bench.firstEvent
        for _ in 0..<calls {
            let sent = Date()
            let id = try await caller.call(bench.uri, video: false)
            guard let incoming = await daemon.waitLine(containing: "\"call_incoming\"", after: cursor),
                  let answered = await daemon.waitLine(containing: "\"call_answered\"", after: incoming.index) else {
                result.failures += 1
                continue
            }
            result.inviteToIncoming.add(incoming.time.timeIntervalSince(sent) * 1000)
            result.answerToMedia.add(answered.time.timeIntervalSince(incoming.time) * 1000)
            try await caller.hangup(id)
            guard let ended = await daemon.waitLine(containing: "\"call_ended\"", after: answered.index) else {
                result.failures += 1
                continue
            }
            cursor = ended.index + 1
            try await Task.sleep(nanoseconds: UInt64(gap * 1e9))
        }
        return result
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
