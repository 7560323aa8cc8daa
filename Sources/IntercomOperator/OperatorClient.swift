import Foundation
import IntercomBase
import IntercomHTTP
import Synchronization

/// The SmartYard mobile API of one operator: `POST {api}/{module}/{method}` with a JSON body and,
/// once logged in, `Authorization: Bearer TOKEN`. Answers go through `OperatorEnvelope`; every
/// failure is an `OperatorError`. The token lives only in this object and the token file.
public final class OperatorClient: Sendable, CustomStringConvertible {
    public let config: OperatorConfig
    private let token: String?
    private let http: HTTPClient
    let zone = Mutex<TimeZone?>(nil)
    /// Where the client notes what it learns of the server (its zone); nil notes nothing.
    let store: OperatorTokenStore?
    /// The cameras the token file kept when this client was made (read with the token, in one read).
    private let keptCameras: [OperatorCamera]
    /// `Accept-Language`: the config's, else the user's locale's.
    let language: String

    /// The cap on one answer: a real list of addresses or a day of log is far below it.
    public static let maxAnswerBytes = 8 << 20

    /// `timeout` covers one request; openDoor may wait on a slow panel behind the server (~10 s).
    public init(config: OperatorConfig, token: String?, store: OperatorTokenStore? = nil, keptCameras: [OperatorCamera] = [],
                timeout: Duration = .seconds(15), maxAnswerBytes: Int = OperatorClient.maxAnswerBytes) throws(OperatorError) {
        self.config = config
        self.token = token
        self.store = store
        self.keptCameras = keptCameras
        language = config.language ?? OperatorConfig.language(environment: ProcessInfo.processInfo.environment)
        let configuration = HTTPClientConfiguration(
            user: "", password: "", caFile: config.caFile, connectTimeout: .seconds(5), timeout: timeout,
            maxBodyBytes: maxAnswerBytes)
        do {
            http = try HTTPClient(configuration: configuration, label: "operator.\(config.name)")
        } catch {
            throw OperatorError(operatorName: config.name, kind: .local(detail: "cannot set up HTTP: \(error)"))
        }
    }

    public var description: String {
        "OperatorClient(\(config.name), \(Redaction.uri(config.api)), token: \(token == nil ? "none" : Redaction.mask))"
    }

    /// One API call; `data` of the answer, nil for 204 or none.
    public func call(_ method: String, _ body: [(String, JSONValue)] = [],
                     context: OperatorEnvelope.Context = .session) async throws(OperatorError) -> JSONValue? {
        try await answer(method, body, context: context).data
    }

    /// One API call with the success status it had (200 or 204, which a few methods tell apart).
    func answer(_ method: String, _ body: [(String, JSONValue)] = [],
                context: OperatorEnvelope.Context = .session) async throws(OperatorError) -> (status: Int, data: JSONValue?) {
        var base = config.api
        while base.hasSuffix("/") { base.removeLast() }
        var headers = [("Content-Type", "application/json"), ("Accept", "application/json"),
                       // The server writes its messages in it, also those it sends others for this request.
                       ("Accept-Language", language),
                       ("X-System-Info", "Linux,intercom"), ("X-App-Version", IntercomVersion.string),
                       // No 100-continue round trip for a small body.
                       ("Expect", "")]
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        let response: HTTPResponse
        do {
            response = try await http.post("\(base)/\(method)", body: Data(JSONValue.object(body).encoded.utf8),
                                            headers: headers)
        } catch {
            throw Self.transportError(error, operatorName: config.name)
        }
        return (response.status, try OperatorEnvelope.decode(status: response.status, body: response.body,
                                                             operatorName: config.name, context: context))
    }

    static func transportError(_ error: HTTPError, operatorName: String) -> OperatorError {
        switch error {
        case .tooLarge(let limit):
            return OperatorError(operatorName: operatorName,
                                 kind: .badAnswer(detail: "larger than \(limit >> 20) MB"))
        case .transfer(let failure), .timedOut(let failure):
            return OperatorError(operatorName: operatorName, kind: .unreachable(detail: failure.message))
        case .cancelled:
            return OperatorError(operatorName: operatorName, kind: .local(detail: "cancelled"))
        case .setup(let failure):
            return OperatorError(operatorName: operatorName,
                                 kind: .local(detail: "bad request setup (check [operator \(operatorName)] api): \(failure.message)"))
        case .unavailable(let missing):
            return OperatorError(operatorName: operatorName, kind: .local(detail: missing.description))
        }
    }

    func shape(_ what: String) -> OperatorError {
        OperatorError(operatorName: config.name, kind: .badAnswer(detail: "\(what) is not the expected shape"))
    }

    // MARK: login

    /// `method` nil lets the server choose (its configured method, else `outgoingCall`).
    public func requestCode(phone: String, deviceId: String,
                            method: LoginMethod? = nil) async throws(OperatorError) -> LoginChallenge {
        var body: [(String, JSONValue)] = [("userPhone", .string(phone)), ("deviceToken", .string(deviceId))]
        if let method { body.append(("method", .string(method.rawValue))) }
        return LoginChallenge(json: try await call("user/requestCode", body, context: .login))
    }

    /// `platform` 2 = web: this client is neither the Android nor the iOS app.
    public func confirmCode(phone: String, code: String, deviceId: String) async throws(OperatorError) -> LoginGrant {
        let data = try await call("user/confirmCode", [("userPhone", .string(phone)), ("smsCode", .string(code)),
                                                       ("deviceToken", .string(deviceId)), ("platform", .integer(2))],
                                  context: .login)
        guard let grant = LoginGrant(json: data) else { throw shape("the confirmCode answer (no accessToken)") }
        return grant
    }

    public func checkPhone(phone: String, deviceId: String) async throws(OperatorError) -> LoginGrant {
        let data = try await call("user/checkPhone", [("userPhone", .string(phone)), ("deviceToken", .string(deviceId)),
                                                      ("platform", .integer(2))], context: .login)
        guard let grant = LoginGrant(json: data) else { throw shape("the checkPhone answer (no accessToken)") }
        return grant
    }

    /// `user/ping`: 204 while the token is good (for `doctor`); a 401 says to log in again.
    public func ping() async throws(OperatorError) {
        _ = try await call("user/ping")
    }

    // MARK: addresses, doors, cameras

    public func addresses() async throws(OperatorError) -> [OperatorAddress] {
        guard let list = OperatorAddress.list(try await call("address/getAddressList")) else { throw shape("the address list") }
        return list
    }

    public func flats() async throws(OperatorError) -> [OperatorFlat] {
        guard let list = OperatorFlat.list(try await call("address/getSettingsList")) else { throw shape("the flat list") }
        return list
    }

    /// Every camera of the subscriber's, or those of one house.
    public func cameras(houseId: String? = nil) async throws(OperatorError) -> [OperatorCamera] {
        let body: [(String, JSONValue)] = houseId.map { [("houseId", .id($0))] } ?? []
        guard let list = OperatorCamera.list(try await call("cctv/all", body)) else { throw shape("the camera list") }
        return list
    }

    /// Every entrance's camera (`cctv/camMap`), by the panel's `domophoneId` and the entrance: what
    /// an operator call from that panel shows while it rings (its first entrance's), and each
    /// entrance's to pick (`OPERATOR:entrance:ID`).
    public func panelCameras() async throws(OperatorError) -> OperatorCameraMap {
        guard let map = OperatorCameraMap.parse(try await call("cctv/camMap")) else { throw shape("the camera map") }
        return map
    }

    /// The camera with this id: from the subscriber's whole list, else from each house's (some
    /// operators list a house's cameras only when asked by house). Nil when none has it.
    /// What is found is kept in the token file for `keptCamera`; a camera no longer listed is forgotten there.
    public func camera(id: String) async throws(OperatorError) -> OperatorCamera? {
        let found = try await findCamera(id: id)
        // Kept only beside the token it was found with: not for a login since, nor after logout.
        try? store?.update(config.name, whileLoggedInWith: token) { credentials in
            if let found {
                if let index = credentials.cameras.firstIndex(where: { $0.id == id }) {
                    credentials.cameras[index] = found
                } else {
                    credentials.cameras.append(found)
                }
            } else {
                credentials.cameras.removeAll { $0.id == id }
            }
        }
        return found
    }

    private func findCamera(id: String) async throws(OperatorError) -> OperatorCamera? {
        if let camera = try await cameras().first(where: { $0.id == id }) { return camera }
        for address in try await addresses() {
            if let camera = try await cameras(houseId: address.houseId).first(where: { $0.id == id }) { return camera }
        }
        return nil
    }

    /// The camera as `camera(id:)` last found it, without asking the operator: its address and token
    /// may be old, so a caller asks `camera(id:)` again when the camera server refuses them.
    public func keptCamera(id: String) -> OperatorCamera? {
        keptCameras.first { $0.id == id }
    }

    /// 204 = the operator accepted the request; it does not know whether the door opened.
    /// The opening is noted as a probe of the server's zone (`OperatorServerZone`) unless the
    /// config names the zone.
    public func openDoor(domophoneId: String, doorId: Int) async throws(OperatorError) {
        let sent = Date()
        _ = try await call("address/openDoor", [("domophoneId", .id(domophoneId)), ("doorId", .integer(doorId))])
        noteProbe(OperatorZoneProbe(sent: sent, domophoneId: domophoneId, doorId: doorId))
    }
}
