import IntercomCLI
import IntercomEngine
import IntercomBase

/// `intercom open [PANEL] [--door main|alt|light|N]`: pulse a door relay through the panel's HTTP API.
enum OpenCommand {
    static let spec = CommandSpec(
        name: "open",
        summary: "open a door outside a call (panel HTTP API)",
        arguments: "[PANEL]",
        maxPositionals: 1,
        options: [.value("--door", "DOOR", "main (default), alt, light, or an output number")],
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let doorText = invocation.arguments.value("--door") ?? "main"
        guard let door = Door(doorText) else {
            return Console.fail(UsageError(message: "--door takes main, alt, light or a number, not '\(doorText)'",
                                           command: "open").description, code: ExitCode.usage)
        }
        switch PanelCommand.client(invocation) {
        case .failure(let failure):
            return Console.fail(failure.message, code: failure.code)
        case .success(let (panel, client)):
            do {
                try await client.open(door: door)
            } catch {
                return Console.fail(error.description, code: error.exitCode)
            }
            Console.out("opened door \(door) of \(panel.name)")
            return ExitCode.ok
        }
    }
}
