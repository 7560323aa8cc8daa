import Foundation
import IntercomBase
import IntercomOperator

/// Which operator a command means, and a client for it with the stored token.
enum OperatorSelection {
    /// `name` from the command line, else the only operator configured.
    static func pick(_ config: IntercomConfig, name: String?) -> Result<OperatorConfig, CommandError> {
        let source = config.path ?? "the config"
        if let name {
            guard let found = config.operator(named: name) else {
                let known = config.operators.map(\.name).joined(separator: ", ")
                return .failure(CommandError("no operator '\(name)' in \(source)"
                    + (known.isEmpty ? "; add an [operator \(name)] section with api and phone" : "; operators: \(known)"),
                    code: ExitCode.usage))
            }
            return .success(found)
        }
        guard config.operators.count == 1, let only = config.operators.first else {
            return .failure(CommandError(config.operators.isEmpty
                ? "no operator in \(source): add an [operator NAME] section with api and phone (see 'intercom config --example')"
                : "several operators configured: name one of \(config.operators.map(\.name).joined(separator: ", "))",
                code: ExitCode.usage))
        }
        return .success(only)
    }

    /// A client that sends the stored token and notes what it learns of the server beside it;
    /// `notLoggedIn` without one.
    static func client(_ op: OperatorConfig, environment: [String: String]) throws(OperatorError) -> OperatorClient {
        let store = OperatorTokenStore(environment: environment)
        let login = try store.loggedIn(op.name)
        return try OperatorClient(config: op, token: login.token, store: store, keptCameras: login.credentials.cameras)
    }

    /// The config, or the failure to print.
    static func config(_ invocation: Invocation) -> Result<IntercomConfig, CommandError> {
        do {
            return .success(try invocation.loadConfig())
        } catch {
            return .failure(CommandError(error.description, code: error.exitCode))
        }
    }

    /// The config's operator named `name` (or its only one), or the failure to print.
    static func pick(_ invocation: Invocation, name: String?) -> Result<OperatorConfig, CommandError> {
        config(invocation).flatMap { pick($0, name: name) }
    }

    /// The flat a command acts on: `--flat` (a flat id, else a flat number), or the only flat.
    static func flat(_ flats: [OperatorFlat], choice: String?, operatorName: String,
                     command: String) -> Result<OperatorFlat, CommandError> {
        OperatorFlat.pick(flats, choice: choice, operatorName: operatorName).mapError {
            CommandError($0.description, code: $0.noFlats ? ExitCode.dataError : ExitCode.usage)
        }
    }
}

extension OperatorError {
    var commandError: CommandError { CommandError(description, code: exitCode) }
}
