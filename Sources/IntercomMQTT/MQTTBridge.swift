import Foundation
import IntercomBase
import IntercomCore

/// The engine on MQTT: a peer front end like the control socket. Events become messages (the JSON
/// event topic, Home Assistant's entities' states); messages on the command topics become the same
/// `IntercomCommand`s `intercom ctl` sends, carried out by `Intercom.execute`, with the outcome on
/// the result topic. Only the process that records the journal runs one.
public actor MQTTBridge {
    private let intercom: Intercom
    private let settings: MQTTSettings
    public nonisolated let topics: MQTTTopics
    private let discovery: HomeAssistantDiscovery
    private let client: MQTTClient
    private let logger: Logger
    private let busEvents: AsyncStream<IntercomEvent>
    /// The bridge's tasks (the broker's events, the operators' doors' refresh, Home Assistant's
    /// republish, an answered call's picture): `stop` cancels them and awaits them.
    private let tasks = TaskOwner("mqtt")
    /// The engine's events, drained at `stop` (they end with `intercom.stop()`), not cancelled.
    private var busPump: Task<Void, Never>?
    private var calls = PanelCallTracker()
    /// The config topics published in this run; a retained one of ours outside it is removed.
    private var published: Set<String> = []
    private var operatorDoors = OperatorDoorLevels([])
    private var connected = false
    private var started = false
    /// Home Assistant's births: at most one republish runs and one waits (any number of births
    /// fold into it), off the path of the commands.
    private var births = HomeAssistantBirthFold()
    private var retainedNotice = RetainedCommandNotice()

    /// Subscribes to the engine's events at once, so none is missed between here and `start`.
    public init(intercom: Intercom, settings: MQTTSettings, host: String = MQTTTopics.machineName(), logger: Logger) {
        self.intercom = intercom
        self.settings = settings
        self.logger = logger
        let topics = MQTTTopics(settings: settings, host: host)
        self.topics = topics
        discovery = HomeAssistantDiscovery(topics: topics)
        var options = MQTTClientOptions(host: settings.host, port: settings.port, tls: settings.tls, caFile: settings.caFile,
                                        user: settings.user, password: settings.password,
                                        clientID: settings.clientID ?? "intercom-\(topics.host)")
        options.will = MQTTMessage(topic: topics.status, text: "offline", retain: true)
        options.subscriptions = ["/+/door/+/open", "/+/answer", "/+/decline", "/+/hangup", "/+/dnd/set", "/+/guest/set",
                                 "/operator/+/open", "/operator/+/settings/+/set"].map { topics.root + $0 }
            + [topics.homeAssistantStatus, topics.ownConfigs].compactMap { $0 }
        client = MQTTClient(options: options)
        busEvents = intercom.bus.subscribe()
    }

    public func start() async {
        guard !started else { return }
        started = true
        logger.notice("mqtt: connecting to \(settings.endpoint)\(settings.tls ? " (TLS)" : ""); topics under \(topics.root)/")
        let config = await intercom.config
        for warning in MQTTExposure.warnings(settings, topics: topics, panels: config.panels.map(\.name), operators: !config.operators.isEmpty) {
            logger.warning("mqtt: " + warning)
        }
        client.start()
        let clientEvents = client.events
        tasks.start { for await event in clientEvents { await self.handle(event) } }
        let busEvents = self.busEvents
        busPump = Task { for await event in busEvents { await self.handle(event) } }
        // The operators' doors arrive in the background: their buttons follow when the list changes.
        tasks.start {
            while true {
                do { try await Task.sleep(for: .seconds(30)) } catch { return }
                await self.refreshOperatorDoors()
            }
        }
    }

    /// The bridge's tasks still running (tests: none once `stop` returned).
    package nonisolated var runningTasks: Int { tasks.running }

    /// Publishes the events still on their way (the engine's bus ends with `intercom.stop()`),
    /// then `offline`, and disconnects cleanly (the broker then drops the will).
    public func stop() async {
        guard started else { return }
        // Closed first: an event drained below starts no picture any more.
        tasks.close()
        await busPump?.value
        busPump = nil
        await tasks.end()
        await client.stop(last: [MQTTMessage(topic: topics.status, text: "offline", retain: true)])
    }

    // MARK: - The broker

    private func handle(_ event: MQTTClientEvent) async {
        switch event {
        case .connected:
            connected = true
            logger.notice("mqtt: connected to \(settings.endpoint)")
            await publishAll()
            client.release()
        case .lost(let reason):
            connected = false
            logger.warning("mqtt: lost the broker \(settings.endpoint) (\(reason)); reconnecting, events wait in a queue of 1000")
        case .unreachable(let reason):
            logger.warning("mqtt: broker \(settings.endpoint) unreachable (\(reason)); retrying every 1 to 30 s; check [mqtt] url and that the broker runs")
        case .notConnecting(let reason):
            logger.error("mqtt: not connecting to \(settings.endpoint): \(reason); retrying every 30 s")
        case .tlsFailed(let reason):
            logger.error("mqtt: TLS with \(settings.endpoint) failed: \(reason); nothing was sent; retrying every 30 s")
        case .refused(let reason):
            let who = settings.user.map { "user '\($0)'" } ?? "no user"
            logger.error("mqtt: broker \(settings.endpoint) refused the login (\(reason)) for \(who); check [mqtt] user and password (and the broker's password file); retrying every 30 s")
        case .dropped(let count):
            logger.warning("mqtt: \(count) event message(s) dropped while the broker was away (the queue keeps the newest 1000)")
        case .message(let message):
            await received(message)
        }
    }

    /// Configs, then `online`, then every state: on each connect and after Home Assistant's birth.
    private func publishAll() async {
        let panels = await intercom.config.panels
        let doors = OperatorDoorLevels(intercom.operatorDoors.doors.map(\.id))
        if doors != operatorDoors, !doors.left.isEmpty {
            logger.warning("mqtt: operator door(s) \(doors.left.joined(separator: ", ")) get no button: their topic would be "
                + "another door's (the operator's ids differ only in characters a topic cannot hold)")
        }
        operatorDoors = doors
        let operators = await intercom.config.operators.map(\.name)
        let configs = discovery.configs(panels: panels, operatorDoors: intercom.operatorDoors.doors, operators: operators)
        published = Set(configs.map(\.topic))
        for config in configs {
            client.publish(MQTTMessage(topic: config.topic, text: config.payload.encoded, retain: true))
        }
        client.publish(MQTTMessage(topic: topics.status, text: "online", retain: true))
        for panel in panels { publishStates(panel) }
        for (name, count) in await intercom.operatorUnread { publishUnread(name, count) }
        // Asked of each operator, which may be slow or away: beside the commands, never before them.
        tasks.start(Self.settingsSlot) { for name in operators { await self.readSettings(name) } }
    }

    private static let settingsSlot = "operator settings"

    /// An operator flat's settings as it has them now, onto their state topics; a failure (not logged
    /// in, several flats) leaves them unset and is said once at info level.
    private func readSettings(_ name: String) async {
        do {
            publishSettings(name, try await intercom.execute(.flatSettings(FlatSettingsRequest(operatorName: name)), as: .mqtt))
        } catch {
            logger.info("mqtt: operator \(name): its flat's settings are not shown: \(error)")
        }
    }

    private func publishSettings(_ name: String, _ settings: JSONValue) {
        for (key, text) in OperatorSettingsTopics.states(settings) {
            retain(topics.operatorAccount(name) + "/settings/\(key)/state", text)
        }
    }

    /// An operator's unread messages (retained), whenever the daemon's inbox round finds a new count.
    public func publishUnread(_ name: String, _ count: Int) {
        retain(topics.operatorAccount(name) + "/unread", String(count))
    }

    private func publishStates(_ panel: PanelConfig) {
        let base = topics.panel(panel.name)
        let guest = panel.isGuestModeActive(at: Date()) ? panel.guestUntil : nil
        retain(base + "/dnd/state", panel.calls ? "OFF" : "ON")
        retain(base + "/guest/state", guest == nil ? "OFF" : "ON")
        retain(base + "/guest/attributes", JSONValue.object([("until", guest.map { .string(RFC3339.string($0)) } ?? .null)]).encoded)
        retain(base + "/ringing", calls.isRinging(panel.name) ? "ON" : "OFF")
        retain(base + "/call_state", calls.state(panel.name))
        if let last = calls.lastCall[panel.name] { retain(base + "/last_call", RFC3339.string(last)) }
    }

    private func retain(_ topic: String, _ text: String) {
        client.publish(MQTTMessage(topic: topic, text: text, retain: true))
    }

    /// The slot of an answered call's picture task: one per call, ended with it.
    private static func answerPictureSlot(_ call: CallID) -> String { "answer picture \(call)" }

    private func refreshOperatorDoors() async {
        guard connected, OperatorDoorLevels(intercom.operatorDoors.doors.map(\.id)) != operatorDoors else { return }
        await publishAll()
    }

    /// Home Assistant asks for everything again. The republish runs beside the commands, never
    /// before them; births fold as `HomeAssistantBirthFold` says.
    private func homeAssistantBorn() {
        guard births.born() else { return }
        tasks.start { await self.republishForHomeAssistant() }
    }

    private func republishForHomeAssistant() async {
        repeat {
            // A short random pause spreads the clients out (every one hears the same birth).
            try? await Task.sleep(for: .milliseconds(Int.random(in: 0...1000)))
            guard !Task.isCancelled else {
                births.cancelled()
                return
            }
            births.publishing()
            await publishAll()
        } while births.published()
    }

    private func received(_ message: MQTTMessage) async {
        if let birth = topics.homeAssistantStatus, message.topic == birth {
            guard message.text == "online" else { return }
            homeAssistantBorn()
            return
        }
        if let prefix = topics.discoveryPrefix, message.topic.hasPrefix(prefix + "/"), message.topic.hasSuffix("/config") {
            // A config of ours kept at the broker from an earlier run for a panel or door that is gone.
            if message.retain && !message.payload.isEmpty && !published.contains(message.topic) {
                logger.notice("mqtt: removing \(message.topic): its panel or door is no longer in the config")
                client.publish(MQTTMessage(topic: message.topic, payload: Data(), retain: true))
            }
            return
        }
        // The broker's replay of a retained command at our subscribe: acting on it would open the
        // door by itself at every reconnect. (In MQTT 3.1.1 a live message never carries the flag.)
        let panels = await intercom.config.panels.map(\.name)
        let parsed = MQTTCommandRequest.parse(message, topics: topics, panels: panels, operatorDoors: operatorDoors,
                                              operators: await intercom.config.operators.map(\.name), guestMinutes: settings.guestMinutes)
        if message.retain {
            if let line = retainedNotice.line(topic: message.topic, known: parsed != nil) { logger.warning(line) }
            return
        }
        guard let request = parsed else { return }
        let command: IntercomCommand
        switch request {
        case .refused(let reason):
            report(message.topic, ok: false, error: reason)
            return
        case .command(let known):
            command = known
        case .callButton(let panel, let action):
            guard let resolved = calls.command(action, panel: panel) else {
                report(message.topic, ok: false, error: action == "hangup" ? "no call with panel \(panel)" : "no call from panel \(panel) is ringing")
                return
            }
            command = resolved
        }
        do {
            let data = try await intercom.execute(command, as: .mqtt)
            report(message.topic, ok: true, data: data)
            // The settings read back after the change: every state, not only the one switched.
            if case .flatSettings(let request) = command { publishSettings(request.operatorName, data) }
        } catch {
            report(message.topic, ok: false, error: "\(error)")
            await republishSwitch(command)
        }
    }

    /// After a switch that failed (not saved: the engine refused it), the panel's state topics
    /// again, so Home Assistant's switch shows the value in force rather than the one asked for.
    private func republishSwitch(_ command: IntercomCommand) async {
        switch command {
        case .setCalls(let panel?, _), .setGuest(let panel?, _):
            if let config = await intercom.config.panel(named: panel) { publishStates(config) }
        case .flatSettings(let request):
            let name = request.operatorName
            tasks.start(Self.settingsSlot) { await self.readSettings(name) }
        default:
            break
        }
    }

    /// The result topic: `{"topic","ok","data"|"error"}`; a refusal is logged too.
    private func report(_ topic: String, ok: Bool, data: JSONValue? = nil, error: String? = nil) {
        var fields: [(String, JSONValue)] = [("topic", .string(topic)), ("ok", .bool(ok))]
        if let data { fields.append(("data", data)) }
        if let error {
            fields.append(("error", .string(error)))
            logger.warning("mqtt: command on \(topic) refused: \(error)")
        }
        client.publish(MQTTMessage(topic: topics.result, text: JSONValue.object(fields).encoded))
    }

    // MARK: - Engine events

    private func handle(_ event: IntercomEvent) async {
        client.publish(MQTTMessage(topic: topics.events, text: event.json.encoded))
        if case .operatorEvent(let notice) = event.kind, HomeAssistantDiscovery.operatorEventTypes.contains(notice.kind) {
            let fields: [(String, JSONValue)] = [("event_type", .string(notice.kind)),
                                                 ("door", .optional(notice.door)), ("camera", .optional(notice.camera)),
                                                 ("who", .optional(notice.who)), ("detail", .optional(notice.detail)),
                                                 ("picture", .optional(notice.picture)), ("time", .string(RFC3339.string(event.time)))]
            client.publish(MQTTMessage(topic: topics.operatorAccount(notice.operatorName) + "/event", text: JSONValue.object(fields).encoded))
            return
        }
        guard let panel = event.panel, let config = await intercom.config.panel(named: panel) else { return }
        let base = topics.panel(config.name)
        func homeAssistantEvent(_ type: String, _ extra: [(String, JSONValue)] = []) {
            let fields: [(String, JSONValue)] = [("event_type", .string(type))] + extra
            client.publish(MQTTMessage(topic: base + "/event", text: JSONValue.object(fields).encoded))
        }
        switch event.kind {
        case .callIncoming(let call):
            calls.incoming(call.id, panel: config.name, at: event.time)
            homeAssistantEvent("ring", [("call", .string(call.id.rawValue)), ("from", .string(call.from))])
            retain(base + "/ringing", "ON")
            retain(base + "/call_state", calls.state(config.name))
            retain(base + "/last_call", RFC3339.string(event.time))
        case .peepholeFrame(let call, _, _, _):
            // Live frames carry no JPEG; the snapshot beside them does.
            guard calls.firstPicture(call.id), let jpeg = intercom.peephole.latestSnapshot(panel: config.name)?.jpeg else { return }
            client.publish(MQTTMessage(topic: base + "/picture", payload: jpeg, retain: true))
        case .callAnswered(let call, _):
            calls.answered(call.id)
            retain(base + "/ringing", calls.isRinging(config.name) ? "ON" : "OFF")
            retain(base + "/call_state", calls.state(config.name))
            let source = IntercomPictureSource(intercom)
            let client = client
            // The call's: its end (or the bridge's stop) cancels it.
            tasks.start(Self.answerPictureSlot(call.id)) {
                // The call's own video needs a moment to bring its first frame.
                do { try await Task.sleep(for: .seconds(2)) } catch { return }
                if let jpeg = await source.videoJPEG(call: call.id) {
                    client.publish(MQTTMessage(topic: base + "/picture", payload: jpeg, retain: true))
                }
            }
        case .callEnded(let call, _, _):
            tasks.cancel(Self.answerPictureSlot(call.id))
            calls.ended(call.id)
            retain(base + "/ringing", calls.isRinging(config.name) ? "ON" : "OFF")
            retain(base + "/call_state", calls.state(config.name))
        case .panelEvent(_, let kind, let state, _):
            guard state == "on" else { return }
            // The panel reports its lock relay switching (`SensorOutAlarm`), not a door contact.
            homeAssistantEvent(kind == "door" ? "lock_relay" : kind)
        case .doorOpened(_, _, let door, let method, let by, let ok, _):
            guard ok else { return }
            homeAssistantEvent("door_opened", [("door", .string(door)), ("method", .string(method)), ("by", .string(by.rawValue))]
                               + (event.who.map { [("who", .string($0.description))] } ?? []))
        case .panelPolicy:
            publishStates(config)
        default:
            break
        }
    }
}
