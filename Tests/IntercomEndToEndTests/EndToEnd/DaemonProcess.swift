import Foundation
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport
import IntercomPhoneTestSupport

/// One JSON line of `intercom daemon --events json`.
struct DaemonEvent: @unchecked Sendable, CustomStringConvertible {
    /// The line as printed.
    let line: String
    let fields: [String: Any]

    var name: String { fields["event"] as? String ?? "" }
    subscript(key: String) -> Any? { fields[key] }
    func string(_ key: String) -> String? { fields[key] as? String }
    func number(_ key: String) -> Double? { (fields[key] as? NSNumber)?.doubleValue }
    /// True when the key is present and JSON null.
    func isNull(_ key: String) -> Bool { fields[key] is NSNull }
    var description: String { line }
}

/// `intercom daemon --events json --config <file>` in a private test directory.
///
/// Stdout goes to a file (Subprocess); every complete line is parsed as one JSON object.
/// Lines that are not JSON objects are kept in `badLines`, so a test can insist there are none.
final class DaemonProcess: @unchecked Sendable {
    let directory: TestDirectory
    let configURL: URL
    let process: Subprocess
    private let lock = NSLock()
    private var parsedBytes = 0
    private var parsed: [DaemonEvent] = []
    private var unparsable: [String] = []
    /// The `started` event once `waitUntilStarted` saw it.
    private(set) var started: DaemonEvent?

    /// The config most daemon tests share: UDP on a free loopback port, strangers refused, and one
    /// panel `entrance` (From `sip:100001@`, from 127.0.0.1) whose calls are answered at once.
    /// `extra` is appended (more sections, e.g. `[hooks]`).
    static func autoAnsweringPanelConfig(extra: String = "") -> String {
        """
        [sip]
        listen = udp:127.0.0.1:0
        unknown_callers = reject

        [panel entrance]
        url = http://127.0.0.1:9
        match = sip:100001@
        auto_answer = on
        """ + (extra.isEmpty ? "" : "\n\n" + extra)
    }

    /// `[sip]` on `listen` (a free loopback port), strangers refused, and panel `entrance` at the simulated
    /// panel's HTTP port with its user and password (`entrance`: more lines for its section).
    static func simulatedPanelConfig(httpPort: UInt16, listen: String = "udp:127.0.0.1:0", entrance: String = "") -> String {
        """
        [sip]
        listen = \(listen)
        unknown_callers = reject

        [panel entrance]
        url = http://127.0.0.1:\(httpPort)
        user = admin
        password = admin
        match = sip:100001@
        \(entrance)

        """
    }

    /// Writes `config` (mode 0600) and starts the daemon at once. With `shell`, the daemon runs
    /// under `bash -c SHELL` with `$0` the binary and `"$@"` its arguments, e.g.
    /// `exec "$0" "$@" 2>/dev/full` or `ulimit -n 40; exec "$0" "$@"`.
    /// `directory`: run in this one (a restart that keeps the state folder) instead of a new one.
    init(config: String, extraArguments: [String] = [], name: String = "daemon", shell: String? = nil,
         directory existing: TestDirectory? = nil) throws {
        self.directory = try existing ?? TestDirectory(prefix: "intercom-e2e-\(name)")
        let directory = self.directory
        configURL = try IntercomBinary.writeConfig(config, in: directory)
        let binary = try IntercomBinary.path()
        let arguments = ["daemon", "--events", "json", "--config", configURL.path] + extraArguments
        process = try Subprocess(
            shell == nil ? binary : "/bin/bash",
            shell.map { ["-c", $0, binary] + arguments } ?? arguments,
            name: "intercom-\(name)",
            environment: try IntercomBinary.environment(in: directory),
            workingDirectory: directory.url, logDirectory: directory.url)
    }

    /// Runs `intercom ARGS --config <this daemon's config>` (ctl, log) to completion.
    func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await IntercomBinary.run(arguments + ["--config", configURL.path], in: directory)
    }

    /// Every event printed so far, in order.
    var events: [DaemonEvent] {
        refresh()
        return lock.withLock { parsed }
    }

    /// Stdout lines that were not a JSON object.
    var badLines: [String] {
        refresh()
        return lock.withLock { unparsable }
    }

    var names: [String] { events.map(\.name) }

    /// Everything the daemon wrote, for failure messages.
    var log: String { process.combinedOutput }

    private func refresh() {
        lock.withLock {
            guard let data = try? Data(contentsOf: process.stdoutURL), data.count > parsedBytes else { return }
            let fresh = data[(data.startIndex + parsedBytes)...]
            // Only complete lines: the last one may still be being written.
            guard let lastNewline = fresh.lastIndex(of: UInt8(ascii: "\n")) else { return }
            let complete = fresh[fresh.startIndex...lastNewline]
            parsedBytes += complete.count
            for lineBytes in complete.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
                let line = String(decoding: lineBytes, as: UTF8.self)
                if let object = try? JSONSerialization.jsonObject(with: Data(lineBytes)) as? [String: Any] {
                    parsed.append(DaemonEvent(line: line, fields: object))
                } else {
                    unparsable.append(line)
                }
            }
        }
    }

    /// The first event (from the start) named `name` for which `predicate` holds, waiting up to `timeout`.
    /// Fails at once if the daemon exits first.
    @discardableResult
    func waitForEvent(_ name: String, timeout: Duration = .seconds(10),
                      where predicate: (DaemonEvent) -> Bool = { _ in true }) async throws -> DaemonEvent {
        var hit: DaemonEvent?
        try await TestPatience.eventually(within: timeout) {
            let exited = !process.isRunning
            hit = events.first(where: { $0.name == name && predicate($0) })
            if hit == nil && exited {
                throw HarnessError("intercom daemon exited (status \(process.exitStatus ?? -1)) before event \(name)"
                    + HarnessError.tail(log))
            }
            return hit != nil
        }
        guard let hit else { throw HarnessError.timeout("daemon event \(name)", after: timeout, log: log) }
        return hit
    }

    /// Waits for `started` and remembers it (its `listen` addresses give the ports).
    @discardableResult
    func waitUntilStarted(timeout: Duration = .seconds(15)) async throws -> DaemonEvent {
        let event = try await waitForEvent("started", timeout: timeout)
        lock.withLock { started = event }
        return event
    }

    /// The addresses of the `started` event, e.g. `["udp:127.0.0.1:40123", "tcp:127.0.0.1:40124"]`.
    var listen: [String] { (lock.withLock { started })?["listen"] as? [String] ?? [] }

    /// The bound port of `transport` ("udp", "tcp") from the `started` event.
    func port(_ transport: String = "udp") throws -> UInt16 {
        guard let address = listen.first(where: { $0.hasPrefix(transport + ":") }),
              let last = address.split(separator: ":").last, let port = UInt16(last), port != 0 else {
            throw HarnessError("no bound \(transport) port in started.listen \(listen)" + HarnessError.tail(log))
        }
        return port
    }

    /// `127.0.0.1:<udp port>`: where sipp sends its calls.
    func hostPort() throws -> String { "127.0.0.1:\(try port("udp"))" }

    /// SIGTERM (then SIGKILL after `grace`) and the exit status.
    @discardableResult
    func stop(grace: Duration = .seconds(5)) async -> Int32? {
        await process.stop(grace: grace)
        return process.exitStatus
    }
}
