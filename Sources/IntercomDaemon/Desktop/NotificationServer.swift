import Foundation

/// `org.freedesktop.Notifications` (the Desktop Notifications Specification 1.2) over one
/// session bus connection: what the desktop notifier asks of the server.
struct NotificationServer: Sendable {
    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    let bus: SessionBus

    /// The user's session bus: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus` where it
    /// exists (as sd-bus and libdbus look); nil when there is none (a server, ssh without logind).
    static func sessionBusAddress(environment: [String: String]) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return nil }
        let path = runtime + "/bus"
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return "unix:path=" + path
    }

    private func method(_ member: String, _ arguments: [BusValue] = []) -> SessionBus.Method {
        SessionBus.Method(destination: Self.name, path: Self.path, interface: Self.name, member: member, arguments: arguments)
    }

    /// What the server offers (`actions`, `body`, `body-images`, …); throws when no server answers.
    func capabilities() async throws(BusError) -> [String] {
        let reply = try await bus.call(method("GetCapabilities"), timeout: .seconds(2))
        return reply.values.first?.stringsValue ?? []
    }

    /// The server's name and version, for `doctor`.
    func serverInformation() async throws(BusError) -> String {
        let values = try await bus.call(method("GetServerInformation"), timeout: .seconds(2)).values.compactMap(\.stringValue)
        return values.prefix(3).joined(separator: " ")
    }

    struct Shown: Sendable {
        var id: UInt32
        /// The unique bus name of the server that showed it: only its signals are believed.
        var server: String?
    }

    /// Shows (or, with `replacing`, updates) a notification. `actions` are key/label pairs;
    /// `timeout` 0 = until closed.
    func notify(replacing: UInt32 = 0, summary: String, body: String, actions: [(key: String, label: String)],
                hints: [(String, BusValue)], timeout: Int32 = 0) async throws(BusError) -> Shown {
        let reply = try await bus.call(method("Notify", [
            .string("intercom"), .uint32(replacing), .string("call-start"), .string(summary), .string(body),
            .strings(actions.flatMap { [$0.key, $0.label] }), .dictionary(hints), .int32(timeout),
        ]))
        guard let id = reply.values.first?.uint32Value else {
            throw BusError(message: "the notification server answered Notify without an id")
        }
        return Shown(id: id, server: reply.sender)
    }

    func close(_ id: UInt32) async throws(BusError) {
        _ = try await bus.call(method("CloseNotification", [.uint32(id)]))
    }

    /// Delivers ActionInvoked and NotificationClosed on `bus.signals`.
    func watchSignals() async throws(BusError) {
        try await bus.watch(path: Self.path, interface: Self.name)
    }
}
