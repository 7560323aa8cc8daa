import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private mosquitto broker on 127.0.0.1:<free port>, in the foreground so the PID we launched
/// is the broker's. No persistence: a restart loses every retained message, as a broker on a
/// tmpfs does, so a test sees what the client republishes. `users` (name → password) turns on
/// password authentication through a `mosquitto_passwd` file; without it anonymous clients pass.
package final class Mosquitto: @unchecked Sendable {
    package let port: UInt16
    package let directory: TestDirectory
    private let configURL: URL
    private let peer = ManagedProcess(name: "mosquitto")

    /// The server certificate of a TLS listener (`tls:`), nil for plain TCP.
    package let tls: TestCertificates.Pair?

    package var url: String { "\(tls == nil ? "mqtt" : "mqtts")://127.0.0.1:\(port)" }

    /// `noDelay`: `set_tcp_nodelay true`, so the broker sends each packet at once (without it, a
    /// PUBACK and a PUBLISH to one client in a row wait for the client's delayed ACK, about 40 ms).
    /// `tls`: the listener speaks TLS only, with this certificate (e.g. `TestCertificates.server`);
    /// `publish` and `subscribe` then cannot reach it. `acl`: the text of an `acl_file`.
    package init(users: [String: String] = [:], noDelay: Bool = true, tls: TestCertificates.Pair? = nil,
                 acl: String? = nil) async throws {
        _ = try ExternalTool.path("mosquitto")
        port = try FreePort.udpAndTCP()
        self.tls = tls
        directory = try TestDirectory(prefix: "intercom-mosquitto")
        var lines = ["listener \(port) 127.0.0.1", "persistence false", "log_dest stderr", "log_type all"]
        if let tls { lines += ["certfile \(tls.certificate)", "keyfile \(tls.key)"] }
        if noDelay { lines.append("set_tcp_nodelay true") }
        // Run as root, mosquitto drops to user `mosquitto`, which cannot read a 0700 test folder.
        if geteuid() == 0 { lines.append("user root") }
        if users.isEmpty {
            lines.append("allow_anonymous true")
        } else {
            let passwords = directory.file("passwd").path
            for (index, (user, password)) in users.sorted(by: { $0.key < $1.key }).enumerated() {
                let result = try await Subprocess.run("mosquitto_passwd", ["-b"] + (index == 0 ? ["-c"] : []) + [passwords, user, password],
                                                      logDirectory: directory.url)
                guard result.status == 0 else { throw HarnessError("mosquitto_passwd failed: \(result.stderr)") }
            }
            lines += ["allow_anonymous false", "password_file \(passwords)"]
        }
        if let acl { lines.append("acl_file \(try directory.write(acl, to: "acl").path)") }
        configURL = try directory.write(lines.joined(separator: "\n") + "\n", to: "mosquitto.conf")
    }

    package func start(timeout: Duration = TestPatience.condition) async throws {
        let port = self.port
        try await peer.start("mosquitto", ["-c", configURL.path], workingDirectory: directory.url, logDirectory: directory.url,
                             waitingFor: "mosquitto on port \(port)", timeout: timeout) { TCPProbe.accepts(port: port) }
    }

    package func stop() async { await peer.stop() }

    package func restart() async throws {
        await stop()
        try await start()
    }

    package var log: String { peer.log }

    /// Publishes one message with `mosquitto_pub` (QoS 1).
    package func publish(_ topic: String, _ payload: String, retain: Bool = false, user: (String, String)? = nil) async throws {
        var arguments = ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-t", topic, "-m", payload]
        if retain { arguments.append("-r") }
        if let user { arguments += ["-u", user.0, "-P", user.1] }
        let result = try await Subprocess.run("mosquitto_pub", arguments, logDirectory: directory.url)
        guard result.status == 0 else { throw HarnessError("mosquitto_pub \(topic) failed: \(result.stderr)") }
    }

    /// A subscriber to `topics` from now on (retained messages first).
    package func subscribe(_ topics: [String] = ["#"], user: (String, String)? = nil) async throws -> MQTTSubscriber {
        try await MQTTSubscriber(port: port, topics: topics, directory: directory, user: user)
    }

}

/// `mosquitto_sub` printing each message as `RETAIN TOPIC HEXPAYLOAD`, read back as messages.
package final class MQTTSubscriber: @unchecked Sendable {
    package struct Message: Sendable, CustomStringConvertible {
        package var topic: String
        package var payload: Data
        package var retained: Bool
        package var arrived: ContinuousClock.Instant
        package var text: String { String(decoding: payload, as: UTF8.self) }
        package var json: [String: Any]? { try? JSONSerialization.jsonObject(with: payload) as? [String: Any] }
        package var description: String { "\(retained ? "[retained] " : "")\(topic) \(payload.count > 300 ? "<\(payload.count) bytes>" : text)" }
    }

    let process: Subprocess
    private let lock = NSLock()
    private var parsedBytes = 0
    private var parsed: [Message] = []

    init(port: UInt16, topics: [String], directory: TestDirectory, user: (String, String)?) async throws {
        // `-d` prints the client's protocol steps on stdout; "Subscribed (mid: …)" follows the broker's
        // SUBACK, so from then on every message on `topics` reaches us. Message lines begin with the
        // retain flag (`0 `/`1 `), the debug lines with a word, so `messages` tells them apart.
        var arguments = ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-F", "%r %t %x", "-d"]
        for topic in topics { arguments += ["-t", topic] }
        if let user { arguments += ["-u", user.0, "-P", user.1] }
        process = try Subprocess("mosquitto_sub", arguments, name: "mosquitto_sub", logDirectory: directory.url)
        do {
            try await process.waitForOutput(containing: "Subscribed (mid:", in: .stdout, timeout: TestPatience.condition)
        } catch {
            await process.stop()
            throw error
        }
    }

    package var messages: [Message] {
        lock.withLock {
            guard let data = try? Data(contentsOf: process.stdoutURL), data.count > parsedBytes else { return parsed }
            let fresh = data[(data.startIndex + parsedBytes)...]
            guard let lastNewline = fresh.lastIndex(of: UInt8(ascii: "\n")) else { return parsed }
            let complete = fresh[fresh.startIndex...lastNewline]
            parsedBytes += complete.count
            let now = ContinuousClock.now
            for line in complete.split(separator: UInt8(ascii: "\n")) {
                let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
                guard fields.count >= 2, fields[0].count == 1, let flag = fields[0].first,
                      flag == UInt8(ascii: "0") || flag == UInt8(ascii: "1") else { continue }
                let hex = fields.count > 2 ? Array(fields[2]) : []
                var payload = Data(capacity: hex.count / 2)
                var index = 0
                while index + 1 < hex.count {
                    if let byte = UInt8(String(decoding: hex[index...index + 1], as: UTF8.self), radix: 16) { payload.append(byte) }
                    index += 2
                }
                parsed.append(Message(topic: String(decoding: fields[1], as: UTF8.self), payload: payload,
                                      retained: fields[0].first == UInt8(ascii: "1"), arrived: now))
            }
            return parsed
        }
    }

    /// The first message (from the start) on `topic` for which `predicate` holds, waiting up to `timeout`.
    @discardableResult
    package func wait(for topic: String, timeout: Duration = TestPatience.condition) async throws -> Message {
        try await wait(for: topic, timeout: timeout, where: { _ in true })
    }

    /// The first message on `topic` for which `predicate` holds.
    @discardableResult
    package func wait(for topic: String, timeout: Duration = TestPatience.condition,
                      where predicate: @escaping @Sendable (Message) -> Bool) async throws -> Message {
        var hit: Message?
        try await TestPatience.eventually(within: timeout, every: .milliseconds(10)) {
            hit = messages.first(where: { $0.topic == topic && predicate($0) })
            if hit == nil && !process.isRunning { throw HarnessError("mosquitto_sub exited" + HarnessError.tail(process.combinedOutput)) }
            return hit != nil
        }
        guard let hit else {
            throw HarnessError.timeout("MQTT message on \(topic)", after: timeout,
                                       log: messages.suffix(40).map(\.description).joined(separator: "\n"))
        }
        return hit
    }

    package func stop() async { await process.stop() }
}
