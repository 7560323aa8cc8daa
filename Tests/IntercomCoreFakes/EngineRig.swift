import Foundation
import IntercomBase
import IntercomCore
import IntercomOperator
import IntercomPhone
import IntercomTestSupport

/// An `Intercom` on fakes and a manual clock, started, with its events recorded: one line per
/// test (`try await EngineRig.start(panels: [...])`). Nothing listens, nothing sleeps; a policy
/// test drives `phone`, looks at `panel(_:)`, `operators` and `events`, and moves `clock`.
package struct EngineRig: Sendable {
    package let intercom: Intercom
    package let phone: FakePhone
    package let panels: [String: FakePanel]
    package let operators: FakeOperator
    package let video: FakeVideo
    package let clock: ManualClock
    package let events: EventRecorder<IntercomEvent>
    package let tokens: OperatorTokenStore
    private let directory: TestDirectory

    /// `loggedIn`: operators with a stored token (default: every one in `operators`); `operatorAPI`:
    /// what they answer, set before the engine's first refresh at start. `directory`: `[directory]`.
    package static func start(panels: [PanelConfig] = [], sip: SIPSettings = SIPSettings(), operators: [OperatorConfig] = [],
                              loggedIn: [String]? = nil, operatorAPI: FakeOperator = FakeOperator(),
                              switches: (any SwitchStore)? = nil, directory entries: [String: String] = [:]) async throws -> EngineRig {
        let directory = try TestDirectory(prefix: "intercom-rig")
        let tokens = OperatorTokenStore(directory: directory.path + "/operators")
        for name in loggedIn ?? operators.map(\.name) {
            try tokens.save(OperatorCredentials(deviceId: "rig-device", token: "rig-token-\(name)"), for: name)
        }
        var config = IntercomConfig(sip: sip, panels: panels, operators: operators,
                                    daemon: DaemonSettings(socketPath: directory.path + "/control.sock"))
        config.directory = entries
        let phone = FakePhone()
        let fakePanels = Dictionary(uniqueKeysWithValues: panels.map { ($0.name, FakePanel(name: $0.name)) })
        let fakeOperators = operatorAPI
        let video = FakeVideo()
        let clock = ManualClock()
        let services = IntercomServices(
            startPhone: { _, _ in phone },
            panel: { config in
                guard let panel = fakePanels[config.name] else { throw RigError("no fake for panel \(config.name)") }
                return panel
            },
            operatorClient: { config, _, _ in fakeOperators.client(config) },
            video: video, clock: clock)
        var settings = PhoneSettings(config: config, environment: [:])
        settings.dataDirectory = directory.path + "/phone"
        let intercom = Intercom(config: config, phoneSettings: settings, logger: .silent, operatorTokens: tokens,
                                switches: switches, services: services)
        let events = EventRecorder(intercom.bus.subscribe())
        try await intercom.start()
        return EngineRig(intercom: intercom, phone: phone, panels: fakePanels, operators: fakeOperators, video: video,
                         clock: clock, events: events, tokens: tokens, directory: directory)
    }

    /// The fake behind a configured panel.
    package func panel(_ name: String) -> FakePanel {
        guard let panel = panels[name] else { preconditionFailure("the rig has no panel \(name): \(panels.keys.sorted())") }
        return panel
    }

    package func stop() async { await intercom.stop() }

    /// Returns once the engine has handled everything the fake phone reported so far.
    package func settle() async { await phone.handled() }

    /// Runs `body` on a fresh rig and stops it afterwards, whether `body` threw or not.
    package static func run(panels: [PanelConfig] = [], sip: SIPSettings = SIPSettings(), operators: [OperatorConfig] = [],
                            loggedIn: [String]? = nil, operatorAPI: FakeOperator = FakeOperator(), directory: [String: String] = [:],
                            _ body: (EngineRig) async throws -> Void) async throws {
        let rig = try await start(panels: panels, sip: sip, operators: operators, loggedIn: loggedIn, operatorAPI: operatorAPI,
                                  directory: directory)
        try await withCleanup({ await rig.stop() }) { try await body(rig) }
    }

    // MARK: - Waiting for events

    /// The first event `match` maps to a value (from the start), waiting for it.
    package func event<T>(_ what: String, _ match: @escaping (IntercomEvent.Kind) -> T?) async throws -> T {
        try await events.wait(what) { match($0.kind) }
    }

    package func incoming(_ id: CallID) async throws -> IntercomEvent.CallRef {
        try await event("call_incoming of \(id)") { if case .callIncoming(let c) = $0, c.id == id { c } else { nil } }
    }

    package func answered(_ id: CallID) async throws -> IntercomEvent.AnsweredBy {
        try await event("call_answered of \(id)") { if case .callAnswered(let c, let by) = $0, c.id == id { by } else { nil } }
    }

    package func ended(_ id: CallID) async throws -> CallEndReason {
        try await event("call_ended of \(id)") { if case .callEnded(let c, let reason, _) = $0, c.id == id { reason } else { nil } }
    }

    /// Who acted in the first `name` event of call `id` (`call_answered`, `call_ended`), waiting for it.
    package func who(_ name: EventName, of id: CallID) async throws -> FaceIdentity? {
        try await events.wait("\(name.rawValue) of \(id)") { $0.eventName == name && $0.call?.id == id ? .some($0.who) : nil }
    }

    /// The `door_opened` events so far: (door, method, trigger, ok, error).
    package var doorEvents: [(door: String, method: String, by: DoorTrigger, ok: Bool, error: String?)] {
        events.all.compactMap { e in
            if case .doorOpened(_, _, let door, let method, let by, let ok, let error) = e.kind { (door, method, by, ok, error) } else { nil }
        }
    }

    /// Waits for the `count`-th `door_opened`.
    @discardableResult
    package func doorOpened(_ count: Int = 1) async throws -> (door: String, method: String, by: DoorTrigger, ok: Bool, error: String?) {
        try await events.wait("door_opened #\(count)") { _ in doorEvents.count >= count ? doorEvents[count - 1] : nil }
    }
}

struct RigError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
