import IntercomAttach
import IntercomBase
import IntercomCLI

/// Whether a screen (`tui`, `watch`) attaches to this user's daemon: one shared rule for both
/// binaries and both screens.
enum ScreenAttach {
    /// No `--own-engine`, and this user's daemon answers on the config's socket serving this very
    /// config (canonical paths compared; no `--config`: the default file). A daemon of another config
    /// leaves the screen an engine of its own (`ScreenPlacement.besideOther`), said on `logger`.
    static func attaches(_ invocation: Invocation, config: IntercomConfig, logger: Logger?) -> Bool {
        let placement = RunningDaemon.placement(socketPath: config.daemon.socketPath, config: config.path,
                                                ownEngine: invocation.arguments.has("--own-engine"))
        if case .attach = placement { return true }
        if case .besideOther(let daemon) = placement {
            logger?.notice("this user's daemon (\(daemon.serving)) serves another config: this screen runs an engine of its own")
        }
        return false
    }
}
