import Foundation
import IntercomCore

/// INVITE → `call_incoming`, and answer → media running, against `intercom daemon` in its own process.
enum PhoneBench {
    struct Result {
        var inviteToIncoming = Samples()
        var answerToMedia = Samples()
        var failures = 0
    }

    static func run(intercom: String, work: String, calls: Int) async throws -> Result {
        let home = "\(work)/phone-home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let config = "\(home)/config.ini"
        try """
        [sip]
        listen = udp:127.0.0.1:0
        [panel bench]
        url = http://127.0.0.1:9
        match = sip:100001@
        auto_answer = on
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try ChildProcess(intercom, ["daemon", "--events", "json", "--config", config],
                                      environment: ["HOME": home, "PATH": "/usr/bin:/bin"])
        defer { daemon.stop() }
        guard let started = await daemon.waitLine(containing: "\"started\""),
              let port = started.line.firstMatch(of: /udp:127\.0\.0\.1:(\d+)/).map({ String($0.1) }) else {
            throw BenchError("the daemon did not start")
        }
        let caller = try await Phone.start(PhoneSettings(
            listen: [ListenAddress(transport: .udp, host: "127.0.0.1", port: 0)],
            dataDirectory: "\(work)/caller", user: "100001", audio: .files(play: nil, record: nil), video: .off),
            logger: .silent)
        defer { Task { await caller.stop() } }
        var result = Result()
        var cursor = started.index + 1
        for _ in 0..<calls {
            let sent = Date()
            let id = try await caller.call("sip:door@127.0.0.1:\(port)", video: false)
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
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        return result
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
