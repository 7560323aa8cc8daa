import Foundation
import IntercomBase
import IntercomPanel

/// Shared by the commands that name a panel (`snapshot`, `watch`): in IntercomCLI so the light
/// `intercom` reads a `watch` line as intercom-full does.
public enum PanelCommand {
    /// The panel named on the command line, or the only one configured; the line to print when there
    /// is none. Reads the config only: no HTTP client is made (an attached `watch` needs the name alone).
    public static func named(_ invocation: Invocation) -> Result<PanelConfig, CommandError> {
        let config: IntercomConfig
        do {
            config = try invocation.loadConfig()
        } catch {
            return .failure(CommandError(error.description, code: error.exitCode))
        }
        if let name = invocation.arguments.positionals.first {
            guard let found = config.panel(named: name) else {
                let known = config.panels.map(\.name).joined(separator: ", ")
                return .failure(CommandError("no panel '\(name)' in \(config.path ?? "the config")"
                    + (known.isEmpty ? "; add a [panel \(name)] section" : "; panels: \(known)"), code: ExitCode.usage))
            }
            return .success(found)
        }
        guard config.panels.count == 1, let only = config.panels.first else {
            return .failure(CommandError(config.panels.isEmpty
                ? "no panel in \(config.path ?? "the config"): add a [panel NAME] section (see 'intercom config --example')"
                : "several panels configured: name one of \(config.panels.map(\.name).joined(separator: ", "))",
                code: ExitCode.usage))
        }
        return .success(only)
    }

    /// The named panel (`named`) and its HTTP API client; the line to print when either cannot be had.
    public static func client(_ invocation: Invocation) -> Result<(PanelConfig, BewardPanel), CommandError> {
        let panel: PanelConfig
        switch named(invocation) {
        case .success(let found): panel = found
        case .failure(let failure): return .failure(failure)
        }
        do {
            return .success((panel, try BewardPanel(panelConfig: panel)))
        } catch {
            return .failure(CommandError(error.description, code: error.exitCode))
        }
    }
}
