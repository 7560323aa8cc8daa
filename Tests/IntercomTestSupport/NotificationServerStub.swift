import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private session bus (`dbus-daemon --session` on a socket in a test folder) with a small
/// `org.freedesktop.Notifications` server on it (Debian's python3 with GI), which logs every call
/// it gets and can press a notification's buttons. Throws (never skips) when it cannot run.
package final class NotificationServerStub: Sendable {
    /// What the server got, one JSON object per call, in order.
    package struct Call: @unchecked Sendable, CustomStringConvertible {
        package let fields: [String: Any]
        package var name: String { fields["call"] as? String ?? "" }
        package var id: Int? { (fields["id"] as? NSNumber)?.intValue }
        /// The wall time it arrived, seconds since 1970.
        package var time: Double { (fields["time"] as? NSNumber)?.doubleValue ?? 0 }
        package subscript(key: String) -> Any? { fields[key] }
        package var description: String {
            (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "?"
        }
    }

    package static let packages = "dbus-daemon python3-gi"

    /// `DBUS_SESSION_BUS_ADDRESS` of the private bus.
    package let address: String
    private let bus: Subprocess
    private let server: Subprocess
    private let directory: TestDirectory

    private init(address: String, bus: Subprocess, server: Subprocess, directory: TestDirectory) {
        self.address = address
        self.bus = bus
        self.server = server
        self.directory = directory
    }

    /// `actions`: whether GetCapabilities lists "actions".
    package static func start(actions: Bool = true) async throws -> NotificationServerStub {
        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else { throw HarnessError.toolMissing(python) }
        _ = try ExternalTool.path("dbus-daemon")
        let directory = try TestDirectory(prefix: "intercom-dbus")
        let socket = directory.file("bus").path
        let bus = try Subprocess("dbus-daemon", ["--session", "--nofork", "--nopidfile", "--print-address=1",
                                                  "--address=unix:path=\(socket)"],
                                 name: "dbus-daemon", logDirectory: directory.url)
        let printed = try await bus.waitForOutput(containing: "unix:path=", in: .stdout, timeout: TestPatience.condition)
        guard let address = printed.split(separator: "\n").first(where: { $0.hasPrefix("unix:path=") }).map(String.init) else {
            await bus.stop()
            throw HarnessError("dbus-daemon printed no address: \(printed)")
        }
        let script = try directory.write(script, to: "notification-server.py")
        let server: Subprocess
        do {
            server = try Subprocess(python, [script.path, actions ? "actions" : "plain"], name: "notification-server",
                                    environment: ["DBUS_SESSION_BUS_ADDRESS": address], logDirectory: directory.url, stdin: true)
            try await server.waitForOutput(containing: "\"call\": \"ready\"", in: .stdout, timeout: TestPatience.condition)
        } catch {
            await bus.stop()
            throw HarnessError("the notification server did not start (packages: \(packages)): \(error)")
        }
        return NotificationServerStub(address: address, bus: bus, server: server, directory: directory)
    }

    package var calls: [Call] {
        server.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]).map(Call.init)
        }
    }

    /// The first call named `name` for which `predicate` holds, waiting up to `timeout`.
    @discardableResult
    package func wait(for name: String, timeout: Duration = TestPatience.condition, where predicate: (Call) -> Bool = { _ in true }) async throws -> Call {
        var hit: Call?
        try await TestPatience.eventually(within: timeout, every: .milliseconds(10)) {
            hit = calls.first(where: { $0.name == name && predicate($0) })
            if hit == nil && !server.isRunning { throw HarnessError("the notification server exited" + HarnessError.tail(server.combinedOutput)) }
            return hit != nil
        }
        guard let hit else { throw HarnessError.timeout("\(name) at the notification server", after: timeout, log: server.combinedOutput) }
        return hit
    }

    /// The server says the button `key` of notification `id` was pressed (`forge`: another
    /// connection on the bus says so instead).
    package func press(_ key: String, on id: Int, forge: Bool = false) throws {
        try server.write(line: "\(forge ? "forge" : "invoke") \(id) \(key)")
    }

    package var log: String { server.combinedOutput + "\n" + bus.combinedOutput }

    package func stop() async {
        await server.stop()
        await bus.stop()
    }
}
