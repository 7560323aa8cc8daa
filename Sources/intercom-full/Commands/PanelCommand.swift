import Foundation
import IntercomCLI
import IntercomEngine
import IntercomBase
import IntercomPanel

/// Shared by the one-shot commands that talk to a panel's HTTP API.
enum PanelCommand {
    /// The panel named on the command line, or the only one configured; prints the error and
    /// returns nil with the exit code when there is none.
    static func client(_ invocation: Invocation) -> Result<(PanelConfig, BewardPanel), CommandFailure> {
        let config: IntercomConfig
        do {
            config = try invocation.loadConfig()
        } catch {
            return .failure(CommandFailure(error.description, code: error.exitCode))
        }
        let name = invocation.arguments.positionals.first
        let panel: PanelConfig
        if let name {
            guard let found = config.panel(named: name) else {
                let known = config.panels.map(\.name).joined(separator: ", ")
                return .failure(CommandFailure("no panel '\(name)' in \(config.path ?? "the config")"
                    + (known.isEmpty ? "; add a [panel \(name)] section" : "; panels: \(known)"), code: ExitCode.usage))
            }
            panel = found
        } else {
            guard config.panels.count == 1, let only = config.panels.first else {
                return .failure(CommandFailure(config.panels.isEmpty
                    ? "no panel in \(config.path ?? "the config"): add a [panel NAME] section (see 'intercom config --example')"
                    : "several panels configured: name one of \(config.panels.map(\.name).joined(separator: ", "))",
                    code: ExitCode.usage))
            }
            panel = only
        }
        do {
            return .success((panel, try BewardPanel(panelConfig: panel)))
        } catch {
            return .failure(CommandFailure(error.description, code: error.exitCode))
        }
    }
}

struct CommandFailure: Error {
    var message: String
    var code: Int32
    init(_ message: String, code: Int32) {
        self.message = message
        self.code = code
    }
}
