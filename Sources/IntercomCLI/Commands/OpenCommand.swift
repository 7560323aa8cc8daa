import IntercomOperator
import IntercomPanel
import IntercomBase
import IntercomHTTP

/// `intercom open [ID] [--door main|alt|light|N]`: a door outside a call — a panel's relay through
/// its HTTP API, or an operator's door through `address/openDoor`. ID is a panel name, `PANEL:DOOR`,
/// or an operator door id from `intercom doors` (`OPERATOR:DOMOPHONE:DOOR`).
public enum OpenCommand {
    public static let spec = CommandSpec(
        name: "open",
        arguments: "[PANEL|ID]",
        maxPositionals: 1,
        options: [.value("--door", "DOOR", "a panel's door: main (default), alt, light, or an output number")],
        details: "ID is a panel name or any id from 'intercom doors'. An operator door is reported as "
            + "requested: the operator accepts the request but does not know whether the door opened.",
        run: run)

    enum Target {
        case panel(PanelConfig, Door)
        case operatorDoor(OperatorConfig, domophoneId: String, doorId: Int, id: String)
    }

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let doorText = invocation.arguments.value("--door")
        var door = Door.main
        if let doorText {
            guard let parsed = Door(doorText) else {
                return CommandError(UsageError(message: "--door takes main, alt, light or a number, not '\(doorText)'",
                                               command: "open").description, code: ExitCode.usage).report()
            }
            door = parsed
        }
        // Every door outside a call is opened over HTTP: libcurl loads while the config is read.
        let warmUp = HTTPWarmUp.start()
        defer { warmUp.wait() }
        let target: Target
        switch OperatorSelection.config(invocation).flatMap({
            resolve(invocation.arguments.positionals.first, door: door, doorGiven: doorText != nil, config: $0)
        }) {
        case .failure(let failure): return failure.report()
        case .success(let found): target = found
        }
        switch target {
        case .panel(let panelConfig, let door):
            do {
                try await BewardPanel(panelConfig: panelConfig).open(door: door)
            } catch {
                return CommandError(error.description, code: error.exitCode).report()
            }
            Console.out("opened door \(door) of \(panelConfig.name)")
        case .operatorDoor(let op, let domophoneId, let doorId, let id):
            do {
                let client = try OperatorSelection.client(op, environment: invocation.environment)
                try await client.openDoor(domophoneId: domophoneId, doorId: doorId)
            } catch {
                return error.commandError.report()
            }
            Console.out("open request accepted by \(op.name) for \(id) (the operator does not report whether the door opened)")
        }
        return ExitCode.ok
    }

    /// What `ID` names: an operator door id, a panel, `PANEL:DOOR`, or (none given) the only panel.
    static func resolve(_ id: String?, door: Door, doorGiven: Bool, config: IntercomConfig) -> Result<Target, CommandError> {
        let source = config.path ?? "the config"
        guard let id else {
            guard config.panels.count == 1, let only = config.panels.first else {
                return .failure(CommandError(config.panels.isEmpty
                    ? (config.operators.isEmpty
                        ? "no panel in \(source): add a [panel NAME] section (see 'intercom config --example')"
                        : "name the door to open: one of the ids 'intercom doors' lists")
                    : "several panels configured: name one of \(config.panels.map(\.name).joined(separator: ", ")) or a door id from 'intercom doors'",
                    code: ExitCode.usage))
            }
            return .success(.panel(only, door))
        }
        switch DoorTarget.resolve(id, in: config) {
        case .panel(let panel, let named)?:
            return .success(.panel(panel, named ?? door))
        case .operatorDoor(let op, let domophoneId, let doorId, _)?:
            guard !doorGiven else {
                return .failure(CommandError(UsageError(message: "--door is for panels; \(id) already names one operator door",
                                                        command: "open").description, code: ExitCode.usage))
            }
            return .success(.operatorDoor(op, domophoneId: domophoneId, doorId: doorId, id: id))
        case nil:
            break
        }
        let panels = config.panels.map(\.name).joined(separator: ", ")
        return .failure(CommandError("no panel or door '\(id)' in \(source)"
            + (panels.isEmpty ? "" : "; panels: \(panels)") + "; 'intercom doors' lists every door id", code: ExitCode.usage))
    }
}
