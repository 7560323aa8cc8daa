import Foundation
import IntercomBase

/// Where do-not-disturb and guest mode switched at run time are kept, so they outlive a restart:
/// the state file today (`PanelSwitchStore`), a site's shared database tomorrow (issue 40). The
/// switches part (`PanelSwitches`) decides what to keep and when; a store only keeps it.
public protocol SwitchStore: Sendable {
    /// Throws what is wrong with the store, for the daemon to refuse to start on it.
    func check() throws
    /// The panels with the kept switches applied where the config has not changed since. A store
    /// that cannot be used leaves every panel's guest mode off (never the config's `guest_until`).
    func apply(to panels: [PanelConfig], logger: Logger) -> [PanelConfig]
    /// Keeps a switch flipped on `panel`, whose config value (the file's) is `configured`; throws
    /// when it cannot be kept, so the switch is not held only until the next restart.
    func setCalls(_ on: Bool, panel: String, configured: Bool, logger: Logger) throws
    func setGuest(_ until: Date?, panel: String, configured: Date?, logger: Logger) throws
}

extension PanelSwitchStore: SwitchStore {}
