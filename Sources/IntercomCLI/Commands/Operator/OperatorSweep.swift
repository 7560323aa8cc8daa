import IntercomBase
import IntercomOperator

/// Runs one request against every configured operator that has a token, for the commands that
/// list everything (doors, cameras, log). An operator without a token is skipped (`skipped`);
/// one that fails is reported on stderr and the others still answer. `code` is the first failure's
/// exit code (0 when all answered), so a script sees a revoked token or a dead server.
struct OperatorSweep<Item: Sendable> {
    var items: [Item] = []
    var code: Int32 = ExitCode.ok
    /// Operators with no token.
    var skipped: [String] = []

    /// Names the skipped operators on stderr; when nothing at all was found, the first one's
    /// "not logged in" is the command's failure instead (exit 77).
    func finish(foundAnything: Bool) -> Int32 {
        if !foundAnything, code == ExitCode.ok, let first = skipped.first {
            return OperatorError(operatorName: first, kind: .notLoggedIn).commandError.report()
        }
        for name in skipped {
            Console.error("intercom: \(name) skipped: not logged in; run 'intercom login \(name)'")
        }
        return code
    }

    static func run(_ config: IntercomConfig, environment: [String: String],
                    _ body: (OperatorConfig, OperatorClient) async throws(OperatorError) -> [Item]) async -> OperatorSweep {
        var sweep = OperatorSweep()
        let store = OperatorTokenStore(environment: environment)
        for op in config.operators {
            do {
                guard let token = try store.load(op.name)?.token else {
                    sweep.skipped.append(op.name)
                    continue
                }
                sweep.items += try await body(op, try OperatorClient(config: op, token: token, store: store))
            } catch {
                Console.error("intercom: \(TerminalSafe.escape(error.description))")
                if sweep.code == ExitCode.ok { sweep.code = error.exitCode }
            }
        }
        return sweep
    }
}
