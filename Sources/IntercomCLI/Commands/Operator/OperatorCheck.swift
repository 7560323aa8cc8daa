import Foundation
import IntercomBase
import IntercomOperator

/// What `intercom doctor` says about each operator: the token file (there, private), whether
/// the operator still accepts the login (`user/ping`), and the zone its times are read in.
public enum OperatorCheck {
    public struct Finding: Sendable {
        public var ok: Bool
        public var text: String
        public var code: Int32
    }

    public static func run(_ config: IntercomConfig, environment: [String: String]) async -> [Finding] {
        let store = OperatorTokenStore(environment: environment)
        var findings: [Finding] = []
        for op in config.operators {
            let path = store.path(for: op.name)
            do {
                guard let token = try store.load(op.name)?.token else {
                    let error = OperatorError(operatorName: op.name, kind: .notLoggedIn)
                    findings.append(Finding(ok: false, text: error.description, code: error.exitCode))
                    continue
                }
                var info = stat()
                if stat(path, &info) == 0, info.st_mode & 0o077 != 0 {
                    findings.append(Finding(ok: false, text: "\(op.name): the token file \(path) is readable by others; "
                        + "run 'chmod 600 \(path)'", code: ExitCode.dataError))
                }
                let client = try OperatorClient(config: op, token: token, store: store)
                try await client.ping()
                findings.append(Finding(ok: true, text: "\(op.name): \(Redaction.uri(op.api)) answers and accepts the login",
                                        code: ExitCode.ok))
                findings.append(await zone(op, client))
            } catch {
                findings.append(Finding(ok: false, text: error.description, code: error.exitCode))
            }
        }
        return findings
    }

    /// The zone the operator's times are read in, and whether `ext/options` (or the config) names
    /// another than the server was seen to write. A difference is a warning: the times are read
    /// in the learned zone unless the config names one.
    static func zone(_ op: OperatorConfig, _ client: OperatorClient) async -> Finding {
        let options = await client.optionsTimeZone()
        let optionsText = options.map { "\($0.identifier) (\(OperatorServerZone.describe($0.secondsFromGMT())))" } ?? "no zone"
        let learned = client.learnedOffset
        let seen = "seen in the log entry of an opening of this client's"
        if let named = op.timeZone {
            if let learned, learned != named.secondsFromGMT() {
                return Finding(ok: false, text: "\(op.name): [operator \(op.name)] timezone is \(named.identifier), but the server "
                    + "writes its times in \(OperatorServerZone.describe(learned)) (\(seen)); check the setting", code: ExitCode.ok)
            }
            return Finding(ok: true, text: "\(op.name): times read in \(named.identifier) ([operator \(op.name)] timezone)",
                           code: ExitCode.ok)
        }
        guard let learned else {
            return Finding(ok: true, text: "\(op.name): times read in \((options ?? OperatorClient.defaultTimeZone).identifier) "
                + "(ext/options: \(optionsText)); not yet checked against what the server writes: open one of its doors "
                + "with 'intercom open', then run 'intercom log'", code: ExitCode.ok)
        }
        if (options ?? OperatorClient.defaultTimeZone).secondsFromGMT() != learned {
            return Finding(ok: false, text: "\(op.name): ext/options names \(optionsText), but the server writes its times in "
                + "\(OperatorServerZone.describe(learned)) (its PHP zone, \(seen)); they are read in "
                + "\(OperatorServerZone.describe(learned))", code: ExitCode.ok)
        }
        return Finding(ok: true, text: "\(op.name): the server writes its times in \(OperatorServerZone.describe(learned)), "
            + "as ext/options says (\(seen))", code: ExitCode.ok)
    }
}
