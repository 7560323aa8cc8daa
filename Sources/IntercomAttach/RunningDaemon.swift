import IntercomBase

/// This user's daemon, if one serves the control socket: whether a screen attaches to it (it serves
/// the screen's config), and what a screen that cannot take the SIP port tells its user, since the
/// program holding the port is then most likely their own daemon.
public enum RunningDaemon {
    /// The daemon's pid, or nil when nothing of ours answers on `socketPath` within 300 ms.
    public static func pid(socketPath: String) -> Int32? {
        (try? ControlClient(path: socketPath, timeout: .milliseconds(300)))?.peerPID
    }

    /// Who answers on `socketPath` (its `status`: pid, version, config), or nil when nothing of ours
    /// does within a second. A daemon that does not say (older, or too slow) is `unspoken`.
    public static func identity(socketPath: String) -> DaemonIdentity? {
        guard let client = try? ControlClient(path: socketPath, timeout: .seconds(1)) else { return nil }
        defer { client.finishSending() }
        let reply = try? client.request(ControlRequest(id: .string("identity"), action: .command(.status)))
        return DaemonIdentity(json: reply?["data"]?["daemon"], peerPID: client.peerPID) ?? .unspoken(pid: client.peerPID)
    }

    /// Where a screen with the config at `config` runs, beside whatever answers on `socketPath`.
    public static func placement(socketPath: String, config: String?, ownEngine: Bool) -> ScreenPlacement {
        guard !ownEngine, let daemon = identity(socketPath: socketPath) else { return .ownEngine }
        // A daemon that did not say is taken as before; the attach itself checks again (`ExpectedConfig`).
        return daemon.isUnspoken || daemon.serves(config: config) ? .attach(daemon) : .besideOther(daemon)
    }

    /// The port-in-use line with the daemon named when it is the one holding the port; with the
    /// screen's `config` when the daemon serves another, which daemon serves which and how to go on.
    public static func portInUse(_ address: String, socketPath: String, config: String? = nil) -> String? {
        guard let daemon = identity(socketPath: socketPath) else { return nil }
        if !daemon.isUnspoken, !daemon.serves(config: config) {
            let screen = DaemonIdentity.canonicalConfig(config) ?? "the built-in defaults"
            return "cannot listen on \(address): this user's intercom daemon (\(daemon.serving)) holds it, and this screen's "
                + "config is \(screen); stop that daemon ('systemctl --user stop intercom'), or give \(screen) its own "
                + "[sip] listen port and [daemon] socket and start its daemon ('intercom daemon --config \(screen)')"
        }
        return "cannot listen on \(address): this user's intercom daemon (pid \(daemon.pid)) holds it and answers calls; "
            + "use 'intercom ctl' beside it, or stop it ('systemctl --user stop intercom') to run a screen with its own engine"
    }
}

/// Where a screen runs (`RunningDaemon.placement`).
public enum ScreenPlacement: Sendable, Equatable {
    /// Attached to this daemon: it serves the screen's config.
    case attach(DaemonIdentity)
    /// No daemon answers, or `--own-engine`: an engine of the screen's own.
    case ownEngine
    /// A daemon of another config answers on the socket: an engine of the screen's own if it can
    /// take its SIP port, else one line saying which daemon serves which config (`portInUse`).
    case besideOther(DaemonIdentity)
}
