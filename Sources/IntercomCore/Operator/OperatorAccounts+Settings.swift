import Foundation
import IntercomBase
import IntercomOperator

extension OperatorAccounts {
    /// The `flatSettings` command (`ctl settings`, MQTT's switches, the screens): the changes checked
    /// as `intercom settings` checks them, applied through the operator's API, and the flat's
    /// settings read back, as `intercom settings --json` prints them. A change the server would
    /// ignore (an owner-only key from a non-owner) is refused before anything is sent.
    func flatSettings(_ request: FlatSettingsRequest, config: IntercomConfig) async throws -> JSONValue {
        var changes: [FlatSettingChange] = []
        for text in request.changes {
            switch FlatSettingChange.parse(text, now: clock.date) {
            case .success(let change): changes.append(change)
            case .failure(let invalid): throw IntercomError.invalidRequest(invalid.description)
            }
        }
        guard let op = config.operator(named: request.operatorName) else {
            let names = config.operators.map(\.name)
            throw IntercomError.unknownTarget("no [operator \(request.operatorName)] in the daemon's config"
                + (names.isEmpty ? "" : " (operators: \(names.joined(separator: ", ")))"))
        }
        // The operator's refusals as the engine's, so the socket's reply carries their exit code
        // (77 for a login to renew, 69 for an operator away).
        do {
            let client = try client(op)
            let flat: OperatorFlat
            switch OperatorFlat.pick(try await client.flats(), choice: request.flat, operatorName: op.name) {
            case .success(let found): flat = found
            case .failure(let failure): throw IntercomError.invalidRequest(failure.description)
            }
            if let refusal = FlatSettingChange.ownerRefusal(changes, flat: flat) { throw IntercomError.refused(refusal.description) }
            let settings = try await client.settings(of: flat, applying: changes)
            if !changes.isEmpty {
                logger.info("operator \(op.name): flat \(flat.flatId) settings changed: \(request.changes.joined(separator: ", "))")
            }
            return settings.json(operatorName: op.name, flat: flat, now: clock.date)
        } catch let error as OperatorError {
            throw IntercomError.operatorRequest(error)
        }
    }
}
