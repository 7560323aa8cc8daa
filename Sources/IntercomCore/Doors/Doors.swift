import Foundation
import IntercomBase
import IntercomPhone

/// The doors part: which panel a command means, which ways its door opens (HTTP, the DTMF code, or
/// both in a conversation under `open = both`), how long the code takes on the wire, and the limit
/// on automatic openings (`auto_open_interval`). A value the engine keeps: its only state is when
/// each door last opened by itself, so its rules are tested without a phone or a panel.
struct Doors: Sendable {
    /// When each panel's door (or operator door, by id) last opened by itself (guest mode, hooks).
    var lastAutomaticOpen: [String: Date] = [:]
    /// What the panels' syslog says of their doors and handsets (`PanelSyslogFlow`): the openings
    /// by key, code or button, and our own DTMF openings it confirms; strangers counted.
    var syslog = PanelSyslog()

    /// An automatic opening of `key` at `now` goes ahead at most once per `interval` (0: no limit);
    /// `refusal` says why not, in the words of the key to change.
    mutating func admitAutomatic(_ key: String, interval: TimeInterval, at now: Date,
                                 refusal: (String) -> String) throws(IntercomError) {
        if interval > 0, let last = lastAutomaticOpen[key], now.timeIntervalSince(last) < interval {
            throw .refused(refusal(Self.seconds(interval)))
        }
        lastAutomaticOpen[key] = now
    }

    /// The ways to try: in a conversation (`active`), the panel's `open`; else its HTTP API only.
    static func methods(_ panel: PanelConfig, inConversation active: Bool) -> [DoorOpenMethod] {
        guard active else { return [.http] }
        switch panel.open {
        case .http: return [.http]
        case .dtmf: return [.dtmf]
        case .both: return [.http, .dtmf]
        }
    }

    static func dtmfDigits(for door: Door, panel: PanelConfig) -> String? {
        switch door {
        case .main: panel.dtmfMain
        case .alt: panel.dtmfAlt
        default: nil
        }
    }

    /// How long the panel's door code takes on the wire (0 when doors open over HTTP).
    static func dtmfSeconds(_ panel: PanelConfig) -> Double {
        guard panel.open != .http else { return 0 }
        let timing = panel.dtmfTiming
        let digits = Double(panel.dtmfMain.count)
        let rounds = Double(max(1, timing.repeat))
        return rounds * digits * Double(timing.durationMs + 40) / 1000 + (rounds - 1) * Double(timing.gapMs) / 1000 + 0.5
    }

    /// The panel a command names, or the only one there is.
    static func resolvePanel(_ name: String?, in config: IntercomConfig) throws(IntercomError) -> PanelConfig {
        if let name {
            guard let panel = config.panel(named: name) else {
                let known = config.panels.map(\.name).joined(separator: ", ")
                throw .unknownPanel("no panel '\(name)' in the config" + (known.isEmpty ? "" : "; panels: \(known)"))
            }
            return panel
        }
        guard config.panels.count == 1, let only = config.panels.first else {
            throw .unknownPanel(config.panels.isEmpty
                ? "no panel in the config: add a [panel NAME] section"
                : "several panels: name one of \(config.panels.map(\.name).joined(separator: ", "))")
        }
        return only
    }

    /// A held call from no panel (a stranger's under `unknown_callers = accept`, an attended
    /// transfer's consultation), the longest-held first. An opening that names no door may mean
    /// it — a face sends no name for a call without a panel — and there is no door of its own to
    /// open: falling back to another call or to the only panel would open a door for whoever the
    /// stranger is, and with `open = dtmf` play the panel's door code into the stranger's call.
    static func callFromNoPanel(_ calls: some Sequence<CallSession>) -> CallSession? {
        calls.filter { $0.panel == nil && $0.operatorDoor == nil }.sorted { $0.since < $1.since }.first
    }

    /// One way of opening, ready to run: the phone's DTMF or the panel's HTTP client. A way the
    /// panel lacks (no code for the door, no usable URL) is an attempt that fails saying what to set.
    static func attempt(_ method: DoorOpenMethod, door: Door, panel: PanelConfig, call: CallID?,
                        client: (any PanelService)?, phone: any PhoneService) -> @Sendable () async throws -> Void {
        switch method {
        case .dtmf:
            guard let call, let digits = dtmfDigits(for: door, panel: panel) else {
                let error = IntercomError.unknownPanel("panel \(panel.name) has no DTMF code for door \(door): set dtmf.main / dtmf.alt")
                return { throw error }
            }
            let timing = panel.dtmfTiming
            return { try await phone.sendDTMF(call, digits: digits, timing: timing) }
        default:
            guard let client else {
                let error = IntercomError.unknownPanel("panel \(panel.name) has no usable url; fix [panel \(panel.name)] url")
                return { throw error }
            }
            return { try await client.open(door: door) }
        }
    }

    /// The reply to an opening from its attempts' errors (nil: it opened), in order: with `both`,
    /// one way through is enough; otherwise the first failure is the command's.
    static func reply(panel: String, door: Door, attempts: [(method: DoorOpenMethod, error: (any Error)?)]) throws -> JSONValue {
        if attempts.count == 1 || attempts.allSatisfy({ $0.error != nil }), let first = attempts.first(where: { $0.error != nil })?.error {
            throw first
        }
        let results = attempts.map { attempt -> JSONValue in
            guard let error = attempt.error else { return .object([("method", .string(attempt.method.rawValue)), ("ok", .bool(true))]) }
            return .object([("method", .string(attempt.method.rawValue)), ("ok", .bool(false)), ("error", .string("\(error)"))])
        }
        return .object([("panel", .string(panel)), ("door", .string(door.description)), ("attempts", .array(results))])
    }

    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
