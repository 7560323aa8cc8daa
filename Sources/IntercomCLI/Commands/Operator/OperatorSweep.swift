import IntercomBase
import IntercomOperator

/// Runs one request against every configured operator that has a token, for the commands that
/// list everything (doors, cameras, log). An operator without a token is skipped (`skipped`);
/// one that fails is reported on stderr and the others still answer. `code` is the first failure's
/// exit code (0 when all answered), so a script sees a revoked token or a dead server.
struct OperatorSweep<Item: Sendable> {
    var items: [Item] = []
    var code: Int32 = ExitCode.ok
    /// Operators with no token (an unreadable token file counts as none).
    var skipped: [String] = []
    /// The token file of each skipped operator whose file is there but cannot be read.
    var unreadable: [String: String] = [:]

    /// Names the skipped operators on stderr; when nothing at all was found, the first one's
    /// "not logged in" is the command's failure instead (exit 77).
    func finish(foundAnything: Bool) -> Int32 {
        if !foundAnything, code == ExitCode.ok, let first = skipped.first {
            let kind = unreadable[first].map { OperatorError.Kind.unreadableToken(path: $0) } ?? .notLoggedIn
            return OperatorError(operatorName: first, kind: kind).commandError.report()
        }
        for name in skipped {
            let why = unreadable[name].map { "the token file \($0) cannot be read" } ?? "not logged in"
            Console.error("intercom: \(name) skipped: \(why); run 'intercom login \(name)'")
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
                if case .unreadableToken(let path) = error.kind {
                    sweep.skipped.append(op.name)
                    sweep.unreadable[op.name] = path
                    continue
                }
                Console.error("intercom: \(TerminalSafe.escape(error.description))")
                if sweep.code == ExitCode.ok { sweep.code = error.exitCode }
            }
        }
        return sweep
    }
}
