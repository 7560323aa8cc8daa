import Foundation
import IntercomBase
import Synchronization

/// The simulated SmartYard mobile API: routing, authorisation and faults. The methods live in the
/// extensions beside this file, one per module. Built from the reference of the real server's
/// behaviour, not from any client: it answers as `mobile.php` does, quirks included (but not its
/// loopback `?phone=` back door, which this simulator does not have).
final class OperatorService: Sendable {
    let options: SimulatedOperatorOptions
    let clock: OperatorClock
    /// The test subscriber's addresses (`options.addresses` of them).
    let houses: [OperatorFixture.House]
    let state: Mutex<OperatorState>
    private let currentFaults: Mutex<SimulatedOperatorFaults>
    private let stopping = Atomic<Bool>(false)
    /// The cameras' video (Flussonic's URLs); nil with `options.cameras` off.
    let video: OperatorVideoService?
    /// `http://host:port/mobile`, known once the server is bound; preview URLs are built from it.
    private let base = Mutex("")

    init(options: SimulatedOperatorOptions) {
        self.options = options
        // The server's times are PHP's `date()`: its default zone, not the one ext/options names.
        self.clock = OperatorClock(timeZone: options.phpTimeZone)
        self.houses = OperatorFixture.houses(options.addresses, panelEntrances: options.panelEntrances)
        var state = OperatorState()
        state.settings.doorCode = options.doorCode
        if let resident = options.residentPhone { state.roommates = [OperatorState.Roommate(phone: resident, type: "inner")] }
        self.state = Mutex(state)
        self.currentFaults = Mutex(options.faults)
        let labels = Dictionary(houses.flatMap(\.entrances).map { ($0.cameraId, $0.cameraName.uppercased()) },
                                uniquingKeysWith: { first, _ in first })
        self.video = options.cameras ? OperatorVideoService(labels: labels) : nil
    }

    var faults: SimulatedOperatorFaults {
        get { currentFaults.withLock { $0 } }
        set { currentFaults.withLock { $0 = newValue } }
    }

    var baseURL: String {
        get { base.withLock { $0 } }
        set { base.withLock { $0 = newValue } }
    }

    var isStopping: Bool { stopping.load(ordering: .relaxed) }
    func setStopping(_ value: Bool) { stopping.store(value, ordering: .relaxed) }

    func count(_ key: String) { state.withLock { $0.counts[key, default: 0] += 1 } }
    func requestCount(_ key: String) -> Int { state.withLock { $0.counts[key] ?? 0 } }

    // MARK: routing

    func handle(_ request: OperatorRequest) -> OperatorReply {
        let reply = route(request)
        count("status:\(reply.status)")
        return reply
    }

    private func route(_ request: OperatorRequest) -> OperatorReply {
        if request.path.hasPrefix("/cctv/") {
            count("cctv/video")
            guard let video, request.method == "GET" || request.method == "HEAD" else { return OperatorEnvelope.error(404) }
            return video.answer(path: request.path, token: request.cameraToken, range: request.header("Range"))
        }
        let prefix = "/mobile/"
        guard request.path.hasPrefix(prefix) else { return OperatorEnvelope.error(404) }
        let parts = request.path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // Images are the only GETs, and need no token: the URL itself is the secret.
        if parts.count == 3, parts[0] == "address", parts[1] == "plogCamshot" {
            let method = "address/plogCamshot"
            count(method)
            guard request.method == "GET" || request.method == "HEAD" else { return OperatorEnvelope.error(404) }
            if let fault = fault(for: method) { return fault }
            return camshot(uuid: parts[2])
        }
        // mobile.php answers 404 to anything but POST, and 405 to a POST for a method it does not have.
        guard request.method == "POST" else { return OperatorEnvelope.error(404) }
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return OperatorEnvelope.error(405) }
        let method = parts[0] + "/" + parts[1]
        guard Self.methods.contains(method) else { return OperatorEnvelope.error(405) }
        count(method)
        if let fault = fault(for: method) { return fault }
        guard !request.bodyTooLarge else { return OperatorEnvelope.error(413) }
        // Like PHP's json_decode: a body that is not a JSON object reads as no fields at all.
        let parsed = JSONValue.parse(String(decoding: request.body, as: UTF8.self))
        let body: JSONValue
        if let parsed, case .object = parsed { body = parsed } else { body = .object([]) }

        switch method {
        case "user/requestCode": return requestCode(body, request)
        case "user/confirmCode": return confirmCode(body, request)
        case "user/checkPhone": return checkPhone(body, request)
        default: break
        }
        let caller: Caller
        switch authorize(request) {
        case .success(let c): caller = c
        case .failure(let refusal): return refusal.reply
        }
        switch method {
        case "user/ping": return OperatorEnvelope.noContent
        case "address/getAddressList": return addressList(caller)
        case "address/getSettingsList": return settingsList(caller)
        case "address/openDoor": return openDoor(body, caller)
        case "address/intercom": return intercom(body, caller)
        case "address/access": return access(body, caller)
        case "address/resetCode": return resetCode(body, caller)
        case "address/plogDays": return plogDays(body, caller)
        case "address/plog": return plog(body, caller)
        case "cctv/all": return cameras(body, caller)
        case "cctv/camMap": return cameraMap(caller)
        case "cctv/ranges": return ranges(body)
        case "ext/options": return extOptions()
        case "inbox/unreaded": return unread(caller)
        case "inbox/inbox": return inbox(caller)
        case "inbox/readed": return markRead(body, caller)
        case "frs/listFaces": return listFaces(body, caller)
        case "frs/like": return likeFace(body, caller)
        case "frs/disLike": return dislikeFace(body, caller)
        case "lprs/listNumbers": return listPlates(body, caller)
        case "lprs/addNumber": return addPlate(body, caller)
        case "lprs/removeNumber": return removePlate(body, caller)
        default: return OperatorEnvelope.error(405)
        }
    }

    /// The API methods the simulator has; mobile.php answers 405 to others before it looks at the token.
    static let methods: Set<String> = [
        "user/requestCode", "user/confirmCode", "user/checkPhone", "user/ping",
        "address/getAddressList", "address/getSettingsList", "address/openDoor", "address/intercom",
        "address/access", "address/resetCode", "address/plogDays", "address/plog",
        "cctv/all", "cctv/camMap", "cctv/ranges", "ext/options", "inbox/unreaded", "inbox/inbox", "inbox/readed",
        "frs/listFaces", "frs/like", "frs/disLike", "lprs/listNumbers", "lprs/addNumber", "lprs/removeNumber",
    ]

    // MARK: faults

    private func fault(for method: String) -> OperatorReply? {
        let faults = self.faults
        switch faults.mode(for: method) {
        case nil:
            return nil
        case .huge:
            return .huge(bytes: faults.hugeBytes)
        case .garbage:
            let page = "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>\n"
            return .bytes(status: 200, type: "text/html", Data(page.utf8))
        case .slow:
            // Sliced so a stopping server does not wait out the delay.
            var left = faults.slowMs
            while left > 0, !isStopping {
                usleep(UInt32(min(left, 50)) * 1000)
                left -= 50
            }
            return nil
        }
    }

    // MARK: authorisation

    /// Who a request with a valid token is.
    struct Caller {
        let phone: String
        let deviceKey: String
        /// Only the test phone's subscriber (and the resident, `residentPhone`) has a flat; any other
        /// phone that logged in has none.
        let hasFlat: Bool
        /// The flat's owner (role 0): the test phone; the resident is not.
        let isOwner: Bool
        /// `Accept-Language`: the server writes its messages in it, also those to other users.
        let language: String
    }

    struct Refusal: Error {
        let reply: OperatorReply
    }

    /// `auth()` of mobile.php: no header 403, no Bearer token 422, an unknown token 401.
    private func authorize(_ request: OperatorRequest) -> Result<Caller, Refusal> {
        guard let header = request.header("Authorization") else {
            return .failure(Refusal(reply: OperatorEnvelope.error(403, OperatorText.noAuthorization)))
        }
        // explode('Bearer', header)[1], trimmed: "Basic …" or a bare "Bearer" has no token.
        let token: String
        if let range = header.range(of: "Bearer") {
            token = header[range.upperBound...].components(separatedBy: "Bearer")[0].trimmingCharacters(in: .whitespaces)
        } else {
            token = ""
        }
        guard !token.isEmpty else { return .failure(Refusal(reply: OperatorEnvelope.error(422, OperatorText.noToken))) }
        let testPhone = options.testPhone
        let resident = options.residentPhone
        let caller: Caller? = state.withLock { s in
            guard let key = s.deviceKey(for: token), var device = s.devices[key] else { return nil }
            if let remaining = device.remaining {
                guard remaining > 0 else {
                    s.devices[key] = nil
                    return nil
                }
                device.remaining = remaining - 1
                s.devices[key] = device
            }
            // The resident's flat is theirs while they are listed (they may remove themselves).
            let member = device.phone == resident && s.roommates.contains { $0.phone == device.phone }
            return Caller(phone: device.phone, deviceKey: key, hasFlat: device.phone == testPhone || member,
                          isOwner: device.phone == testPhone, language: request.language)
        }
        guard let caller else { return .failure(Refusal(reply: OperatorEnvelope.error(401, OperatorText.unauthorized))) }
        return .success(caller)
    }

    /// Every token stops working (401) at once, as when an operator's admin removes the devices.
    func revokeAllTokens() {
        state.withLock { $0.devices.removeAll() }
    }
}
