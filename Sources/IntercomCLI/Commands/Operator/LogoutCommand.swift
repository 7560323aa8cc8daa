import IntercomBase
import IntercomOperator

/// `intercom logout [OPERATOR]`: forgets the token; the device id stays, so a later login
/// confirms as the same device (the operator rotates its token instead of adding a device).
public enum LogoutCommand {
    public static let spec = CommandSpec(
        name: "logout",
        arguments: "[OPERATOR]",
        maxPositionals: 1,
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        switch OperatorSelection.pick(invocation, name: invocation.arguments.positionals.first) {
        case .failure(let failure):
            return failure.report()
        case .success(let op):
            do {
                let removed = try OperatorTokenStore(environment: invocation.environment).logout(op.name)
                Console.out(removed ? "logged out of \(op.name); the token is forgotten" : "not logged in to \(op.name); nothing to forget")
                return ExitCode.ok
            } catch {
                return error.commandError.report()
            }
        }
    }
}
