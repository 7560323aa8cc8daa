import Foundation
import IntercomBase
import IntercomCore
import IntercomImaging

/// The engine on the desktop (`[notify] desktop`): a peer front end like the control socket and
/// MQTT. A ring becomes a freedesktop notification with the panel's name, its first peephole
/// picture and Answer / Open door / Decline buttons (where the server offers actions); a button
/// becomes the same `IntercomCommand` the key sends, said to come `by: notification`; the
/// notification closes when the call is answered anywhere or ends.
public actor DesktopNotifier {
    private let intercom: Intercom
    private let server: NotificationServer
    private let actions: Bool
    private let logger: Logger
    private let events: AsyncStream<IntercomEvent>
    /// The notifier's tasks (the engine's events, the bus's signals, a button's command): `stop`
    /// cancels them and awaits them; a finished command leaves at once, so none piles up.
    private let tasks = TaskOwner("desktop notifier")
    /// The notification shown for each ringing call.
    private var shown: [CallID: Shown] = [:]

    private struct Shown {
        var notification: NotificationServer.Shown
        var call: IntercomEvent.CallRef
        var picture: Bool
    }

    static let buttons: [(key: String, label: String)] = [("answer", "Answer"), ("open", "Open door"), ("decline", "Decline")]

    /// Connects per `mode` and starts listening to the engine's events; nil when notifications are
    /// off or cannot be shown (the reason logged once: a notice for `auto`, a warning for `on`).
    /// Started before the engine (as the daemon and the screens do), it misses no ring.
    public static func start(intercom: Intercom, mode: NotifyMode, environment: [String: String],
                             logger: Logger) async -> DesktopNotifier? {
        guard mode != .off else { return nil }
        func unavailable(_ why: String) -> DesktopNotifier? {
            let line = "desktop notifications: \(why)" + (mode == .on ? " ([notify] desktop = on)" : "; none shown")
            if mode == .on { logger.warning(line) } else { logger.info(line) }
            return nil
        }
        guard let address = NotificationServer.sessionBusAddress(environment: environment) else {
            return unavailable("no session bus (DBUS_SESSION_BUS_ADDRESS unset, no $XDG_RUNTIME_DIR/bus)")
        }
        let server: NotificationServer
        let capabilities: [String]
        do {
            server = NotificationServer(bus: try await SessionBus.connect(address: address))
        } catch {
            return unavailable(error.description)
        }
        do {
            capabilities = try await server.capabilities()
            try await server.watchSignals()
        } catch {
            await server.bus.close()
            return unavailable("no notification server on the session bus: \(error)")
        }
        // Subscribed only now: a process without notifications keeps no stream of unread events.
        let notifier = DesktopNotifier(intercom: intercom, server: server, actions: capabilities.contains("actions"),
                                       events: intercom.bus.subscribe(), logger: logger)
        await notifier.run()
        logger.info("desktop notifications on the session bus" + (capabilities.contains("actions") ? ", with buttons" : ", without buttons (the server offers no actions)"))
        return notifier
    }

    /// For `doctor`: whether a ring would be shown on the desktop, and why (`ok` false: a notice).
    public static func check(mode: NotifyMode, environment: [String: String]) async -> (ok: Bool, text: String) {
        guard mode != .off else { return (true, "desktop notifications: off ([notify] desktop = off)") }
        guard let address = NotificationServer.sessionBusAddress(environment: environment) else {
            return (false, "desktop notifications: no session bus (DBUS_SESSION_BUS_ADDRESS unset, no $XDG_RUNTIME_DIR/bus); "
                + "rings are not shown on a desktop (the daemon runs on without them)")
        }
        let bus: SessionBus
        do {
            bus = try await SessionBus.connect(address: address)
        } catch {
            return (false, "desktop notifications: \(error)")
        }
        let server = NotificationServer(bus: bus)
        let finding: (ok: Bool, text: String)
        do {
            let capabilities = try await server.capabilities()
            let name = (try? await server.serverInformation()) ?? "a notification server"
            finding = (true, "desktop notifications: \(name) on \(address)"
                + (capabilities.contains("actions") ? ", with Answer / Open door / Decline buttons" : ", without buttons (it offers no actions)"))
        } catch {
            finding = (false, "desktop notifications: no notification server on the session bus (\(error))")
        }
        await bus.close()
        return finding
    }

    private init(intercom: Intercom, server: NotificationServer, actions: Bool, events: AsyncStream<IntercomEvent>, logger: Logger) {
        self.intercom = intercom
        self.server = server
        self.actions = actions
        self.events = events
        self.logger = logger
    }

    private func run() {
        let events = self.events
        tasks.start { for await event in events { await self.handle(event) } }
        let signals = server.bus.signals
        tasks.start { for await signal in signals { await self.handle(signal) } }
    }

    /// Closes what is still shown and the connection.
    public func stop() async {
        await tasks.end()
        for item in shown.values { try? await server.close(item.notification.id) }
        shown = [:]
        await server.bus.close()
    }

    // MARK: - Engine events

    private func handle(_ event: IntercomEvent) async {
        switch event.kind {
        case .callIncoming(let call):
            await show(call)
        case .peepholeFrame(let call, _, _, _):
            guard let item = shown[call.id], !item.picture, let hint = picture(of: call) else { return }
            // The first picture usually comes after the ring: the notification is updated in place.
            shown[call.id]?.picture = true
            do {
                _ = try await server.notify(replacing: item.notification.id, summary: Self.summary(call), body: Self.body(call),
                                            actions: actions ? Self.buttons(for: call) : [], hints: Self.hints + [hint])
            } catch {
                logger.warning("desktop notification of \(call.id): the picture was not added: \(error)")
            }
        case .callAnswered(let call, _), .callEnded(let call, _, _):
            guard let item = shown.removeValue(forKey: call.id) else { return }
            do {
                try await server.close(item.notification.id)
            } catch {
                logger.warning("desktop notification of \(call.id) not closed: \(error)")
            }
        default:
            break
        }
    }

    private func show(_ call: IntercomEvent.CallRef) async {
        let hint = picture(of: call)
        do {
            let notification = try await server.notify(summary: Self.summary(call), body: Self.body(call),
                                                       actions: actions ? Self.buttons(for: call) : [], hints: Self.hints + (hint.map { [$0] } ?? []))
            shown[call.id] = Shown(notification: notification, call: call, picture: hint != nil)
            logger.info("desktop notification \(notification.id) shown for call \(call.id)")
        } catch {
            logger.warning("desktop notification of call \(call.id) not shown: \(error)")
        }
    }

    /// Critical: a doorbell should not wait behind other notifications or time out on its own.
    private static let hints: [(String, BusValue)] = [("urgency", .byte(2)), ("category", .string("call.incoming")),
                                                      ("desktop-entry", .string("intercom"))]

    static func summary(_ call: IntercomEvent.CallRef) -> String {
        "\(call.panel ?? call.from) is calling"
    }

    /// Servers that offer `body-markup` read the body as markup: the caller's address is escaped.
    static func body(_ call: IntercomEvent.CallRef) -> String {
        let from = call.from.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        return call.panel == nil ? from : "Door panel · \(from)"
    }

    /// The largest picture a notification carries: 320×180 (16:9 as the panels' frames), 169 KB raw.
    /// A popup shows a thumbnail; the whole 960×540 frame (1.5 MB) only made every Notify heavy for
    /// the bus to carry and the server to keep.
    static let thumbnail = PixelSize(width: 320, height: 180)

    /// The call's newest peephole picture, shrunk to `thumbnail`, as the `image-data` hint (iiibiiay:
    /// width, height, rowstride, alpha, bits per sample, channels, RGB bytes). In the message
    /// rather than an `image-path` file: nothing is left in the runtime folder to clean up or to be
    /// read by someone else, and the server has it the moment it shows the notification.
    private func picture(of call: IntercomEvent.CallRef) -> (String, BusValue)? {
        guard let panel = call.panel, let frame = intercom.peephole.latest(panel: panel),
              frame.call == nil || frame.call == call.id else { return nil }
        let image = frame.image.shrunk(toFit: Self.thumbnail)
        return ("image-data", .structure([.int32(Int32(image.width)), .int32(Int32(image.height)), .int32(Int32(image.width * 3)),
                                          .bool(false), .int32(8), .int32(3), .bytes(image.pixels)]))
    }

    // MARK: - The server's signals

    private func handle(_ signal: SessionBus.Signal) async {
        guard signal.interface == NotificationServer.name, let id = signal.values.first?.uint32Value,
              let (callID, item) = shown.first(where: { $0.value.notification.id == id }) else { return }
        // Signals about our notification from anyone but the server that showed it are not believed,
        // nor any when we do not know which server that was: a button opens a door.
        guard Self.believed(sender: signal.sender, server: item.notification.server) else {
            let why = item.notification.server == nil ? "the server's bus name is unknown (its Notify reply named no sender)"
                : "not the server that showed it"
            logger.warning("desktop notification \(id): \(signal.member) from \(signal.sender ?? "no sender"), \(why) (ignored)")
            return
        }
        switch signal.member {
        case "NotificationClosed":
            shown[callID] = nil
        case "ActionInvoked":
            guard let key = signal.values.dropFirst().first?.stringValue, let command = Self.command(key, call: item.call) else { return }
            logger.info("desktop notification \(id): \(key) for call \(callID)")
            let intercom = self.intercom
            let logger = self.logger
            // Off the signal loop: opening a ringing panel's door answers, opens and hangs up.
            // Kept with the notifier's tasks, so `stop` cancels one still running.
            tasks.start {
                do {
                    try await intercom.execute(command, as: .notification)
                } catch {
                    logger.warning("desktop notification \(id): \(key) failed: \(error)")
                }
            }
        default:
            break
        }
    }

    /// A signal is the server's only when both names are known and the same (fails closed).
    package static func believed(sender: String?, server: String?) -> Bool {
        guard let sender, let server else { return false }
        return sender == server
    }

    /// The buttons of a call's notification. A call from no panel (a stranger's under
    /// `unknown_callers = accept`) has no door of its own and the engine refuses to open one for
    /// it (`notAPanelCall`): it gets no "Open door" that could only fail.
    package static func buttons(for call: IntercomEvent.CallRef) -> [(key: String, label: String)] {
        call.panel == nil ? buttons.filter { $0.key != "open" } : buttons
    }

    /// What a button does: what the key does, `by: notification`. A stranger's call has no "open" (`buttons(for:)`).
    package static func command(_ key: String, call: IntercomEvent.CallRef) -> IntercomCommand? {
        switch key {
        case "answer": .answer(call.id, by: .notification)
        case "open" where call.panel != nil: .open(panel: call.panel, door: .main, by: .notification)
        case "decline": .decline(call.id)
        default: nil
        }
    }
}
