/// What the host brings up, one stage at a time. The order of a list is the order of start; the
/// host takes the started stages down in reverse, so each list says both orders at once.
public enum HostStage: String, Sendable, CaseIterable {
    /// The journal, hooks and operators' log copy: subscribed before the engine starts, so
    /// `started` goes through them too; finished last, once the bus has ended.
    case pipeline
    /// The MQTT bridge is made (on the pipeline: only the journal's writer publishes); it stops
    /// after the engine, so the last events still go out.
    case mqtt
    /// The control socket is taken before the SIP ports: a second daemon on the same socket stops
    /// here. Requests that come before the engine runs get "the SIP phone is not running".
    case controlSocket
    /// Desktop notifications: before the engine, so the first ring finds the session bus connected.
    case desktop
    /// The site (`[site]`, docs/SITE.md): this desk joins the others before its engine starts, so
    /// a switch never meets an engine outside its site, and leaves after the engine stopped.
    /// Nothing without `[site]`.
    case site
    /// The engine: the SIP phone, panels, operators.
    case engine
    /// The MQTT bridge connects once the engine answers its commands.
    case mqttConnect
    /// The keeper of shared-access ends: after the engine, so a due end is taken back at once and
    /// `share_expired` goes through the started pipeline.
    case shareExpiry
    /// The panels' alarm streams, and their syslog socket (`[syslog]`: a port in use stops the start here).
    case panelAlarms
    /// The socket serves; stopping this (first) closes it, so no request meets a stopping engine.
    case serving
    /// The log's "listening on" and systemd's READY; stopping says STOPPING first.
    case ready

    /// The daemon: every stage.
    public static let daemon: [HostStage] = [.pipeline, .mqtt, .controlSocket, .desktop, .site, .engine, .mqttConnect,
                                             .shareExpiry, .panelAlarms, .serving, .ready]

    /// A screen with its own engine: no socket, no share keeper, no systemd; desktop
    /// notifications unless the screen was told not to post them.
    public static func screen(notify: Bool) -> [HostStage] {
        [.pipeline, .mqtt] + (notify ? [.desktop] : []) + [.engine, .mqttConnect, .panelAlarms]
    }
}

/// How each stage is brought up and taken down: the engine's own pieces in a process, fakes in tests.
/// `stop` is called for a stage whose `start` threw as well, so it must bear a half-made stage.
public protocol HostParts: Sendable {
    func start(_ stage: HostStage) async throws
    func stop(_ stage: HostStage) async
}

/// A face the host starts beside the engine and stops after it (the MQTT bridge), from a target
/// the daemon's does not import.
public protocol HostFace: Sendable {
    func start() async
    func stop() async
}
