import Foundation
import IntercomBase
import IntercomOperator

/// What `intercom doctor` says about each operator: the token file (there, private) and whether
/// the operator still accepts the login (`user/ping`).
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
                try await OperatorClient(config: op, token: token).ping()
                findings.append(Finding(ok: true, text: "\(op.name): \(Redaction.uri(op.api)) answers and accepts the login",
                                        code: ExitCode.ok))
            } catch {
                findings.append(Finding(ok: false, text: error.description, code: error.exitCode))
            }
        }
        return findings
    }
}
