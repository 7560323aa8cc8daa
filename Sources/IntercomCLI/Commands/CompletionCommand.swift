/// `intercom completion bash|zsh|fish`: the shell's completion script, made from every
/// command's description; `make install` puts each where its shell looks.
public enum CompletionCommand {
    public static let spec = CommandSpec(
        name: "completion",
        arguments: "bash|zsh|fish",
        maxPositionals: 1,
        details: """
            Commands, options and their values complete from the command tables; panel names, door
            ids and operators from your config, read when you press Tab (intercom __complete).
            To try one without installing: source <(intercom completion bash).
            """,
        run: run)

    public static let shells = ["bash", "zsh", "fish"]

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        guard let shell = invocation.arguments.positionals.first, shells.contains(shell) else {
            return Console.fail(UsageError(message: "say which shell: bash, zsh or fish", command: "completion").description,
                                code: ExitCode.usage)
        }
        let commands: [CommandDescription]
        do {
            commands = try CommandCatalog.gather(own: invocation.table)
        } catch {
            return Console.fail(error.description, code: ExitCode.failure)
        }
        switch shell {
        case "bash": Console.out(BashCompletion.script(commands))
        case "zsh": Console.out(ZshCompletion.script(commands))
        default: Console.out(FishCompletion.script(commands))
        }
        return ExitCode.ok
    }
}
