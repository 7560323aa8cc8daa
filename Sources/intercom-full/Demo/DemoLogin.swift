import IntercomBase
import IntercomOperator

/// Logs the demo in to its simulated operator as `intercom login` would (requestCode, then
/// confirmCode with the test phone's code), keeping the token in the store `environment` names:
/// the demo's private state folder, never the user's.
enum DemoLogin {
    static func logIn(_ config: OperatorConfig, code: String, environment: [String: String]) async throws(DemoError) {
        guard let phone = config.phone else { throw DemoError("the demo operator has no phone") }
        let store = OperatorTokenStore(environment: environment)
        do {
            let credentials = try store.loadOrCreate(config.name)
            let client = try OperatorClient(config: config, token: nil)
            _ = try await client.requestCode(phone: phone, deviceId: credentials.deviceId, method: .sms)
            let token = try await client.confirmCode(phone: phone, code: code, deviceId: credentials.deviceId).token
            try store.logIn(config.name, token: token, deviceId: credentials.deviceId)
        } catch {
            throw DemoError("cannot log in to the simulated operator: \(error.description)")
        }
    }
}
