import Foundation
import IntercomCore
import IntercomBase
import IntercomPhone

/// `intercom daemon --events json` with a config of the bench's, and a liblinphone caller
/// that rings it as panel `100001`.
struct BenchDaemon {
    var process: ChildProcess
    var port: String
    /// Index of the first event line after `started`.
    var firstEvent: Int

    /// `environment`: more variables for the daemon (an attached screen's `XDG_RUNTIME_DIR`, where its socket is);
    /// `timeout`: seconds to wait for `started` (several daemons starting at once on a busy machine need more).
    static func start(intercom: String, home: String, config: String, environment: [String: String] = [:],
                      timeout: Double = 10) async throws -> BenchDaemon {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let path = "\(home)/config.ini"
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        let process = try ChildProcess(intercom, ["daemon", "--events", "json", "--config", path],
                                       environment: ["HOME": home, "PATH": "/usr/bin:/bin"].merging(environment) { $1 })
        guard let started = await process.waitLine(containing: "\"started\"", timeout: timeout),
              let port = started.line.firstMatch(of: /udp:127\.0\.0\.1:(\d+)/).map({ String($0.1) }) else {
            process.stop()
            throw BenchError("the daemon did not start")
        }
        return BenchDaemon(process: process, port: port, firstEvent: started.index + 1)
    }

    var uri: String { "sip:door@127.0.0.1:\(port)" }

    static func caller(work: String, name: String) async throws -> Phone {
        try await Phone.start(PhoneSettings(
            listen: [ListenAddress(transport: .udp, host: "127.0.0.1", port: 0)],
            dataDirectory: "\(work)/\(name)", user: "100001", audio: .files(play: nil, record: nil), video: .off),
            logger: .silent)
    }
}
