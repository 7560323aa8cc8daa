import IntercomBase

/// This user's daemon, if one serves the control socket: what a screen that cannot take the SIP
/// port tells its user, since the program holding the port is then most likely their own daemon.
public enum RunningDaemon {
    /// The daemon's pid, or nil when nothing of ours answers on `socketPath` within 300 ms.
    public static func pid(socketPath: String) -> Int32? {
        (try? ControlClient(path: socketPath, timeout: .milliseconds(300)))?.peerPID
    }

    /// The port-in-use line with the daemon named when it is the one holding the port.
    public static func portInUse(_ address: String, socketPath: String) -> String? {
        guard let pid = pid(socketPath: socketPath) else { return nil }
        return "cannot listen on \(address): this user's intercom daemon (pid \(pid)) holds it and answers calls; "
            + "use 'intercom ctl' beside it, or stop it ('systemctl --user stop intercom') to run a screen with its own engine"
    }
}
