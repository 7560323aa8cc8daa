import Foundation
import IntercomHTTP
import Synchronization
import IntercomBase

/// One Beward panel's HTTP CGI API (see docs: beward-http-api.md §2–§3).
///
/// Calls run one at a time over a single kept-alive connection; concurrent callers
/// queue behind each other, which is also what the panels' tiny web servers prefer. Other panels'
/// calls do not wait for them: every panel's transfers share one `HTTPEventLoop` thread.
public final class BewardPanel: Sendable {
    public let name: String
    /// Scheme, host and port, without a trailing slash or user info.
    public let baseURL: String
    public let model: PanelModel
    public let configuration: HTTPClientConfiguration
    let client: HTTPClient
    /// Filled by the first `detectFamily()`; a panel does not change family while we run.
    private let detectedFamily: Mutex<PanelFamily?>
    /// What the panel's last challenge asked for; a kept-alive Digest session is not challenged again.
    private let lastOfferedAuth = Mutex<HTTPAuthMethods>([])
    /// The switch-backs (`Enable=off`, `Status=0`) still running: they outlive a cancelled caller.
    let switchBacks = SwitchBacks()

    /// - Parameters:
    ///   - timeout: the whole-request limit for door and snapshot calls (SmartYard uses 3 s).
    ///   - maxBodyBytes: the largest snapshot (or other body) accepted.
    ///   - httpLoop: the event loop for its transfers; nil is the process's shared one.
    public init(
        name: String,
        baseURL: String,
        user: String,
        password: String,
        auth: PanelAuth = .digest,
        model: PanelModel = .auto,
        insecure: Bool = false,
        caFile: String? = nil,
        connectTimeout: Duration = .seconds(3),
        timeout: Duration = .seconds(3),
        maxBodyBytes: Int = 8 << 20,
        httpLoop: HTTPEventLoop? = nil
    ) throws(PanelError) {
        self.name = name
        self.baseURL = try Self.normalize(baseURL: baseURL, panel: name)
        self.model = model
        self.configuration = HTTPClientConfiguration(
            user: user, password: password, auth: auth, insecure: insecure, caFile: caFile,
            connectTimeout: connectTimeout, timeout: timeout, maxBodyBytes: maxBodyBytes)
        do {
            self.client = try HTTPClient(configuration: configuration, label: name, loop: httpLoop)
        } catch {
            throw .badData("panel \(name): cannot set up HTTP: \(error)")
        }
        switch model {
        case .auto: detectedFamily = Mutex(nil)
        case .dks: detectedFamily = Mutex(.dks)
        case .ds: detectedFamily = Mutex(.ds)
        }
    }

    /// Credentials belong in `user`/`password`, where they stay out of URLs and messages.
    private static func normalize(baseURL: String, panel: String) throws(PanelError) -> String {
        var text = baseURL.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix("/") { text.removeLast() }
        guard let address = URLAddress(parsing: text), address.scheme == "http" || address.scheme == "https",
              address.portIsValid
        else {
            throw .badData("panel \(panel): url must look like http://HOST[:PORT] or https://HOST[:PORT]")
        }
        guard !address.hasCredentials else {
            throw .badData("panel \(panel): put the user and password in user = / password =, not in the url")
        }
        return text
    }

    // MARK: - Endpoints

    /// One JPEG as the panel serves it (the size follows the main stream; scale it yourself).
    public func snapshot() async throws(PanelError) -> Data {
        let response = try await request(cgi: "images_cgi", query: "channel=0")
        let body = response.body
        let isJPEGType = response.contentType?.lowercased().hasPrefix("image/jpeg") ?? false
        let hasJPEGMagic = body.count >= 2 && body[body.startIndex] == 0xFF && body[body.startIndex + 1] == 0xD8
        guard !body.isEmpty, isJPEGType || hasJPEGMagic else {
            let type = response.contentType ?? "no Content-Type"
            throw .badData("panel \(name) sent \(type), not a JPEG, for images_cgi")
        }
        return body
    }

    /// `systeminfo_cgi?action=get`: DeviceModel, SoftwareVersion, UpTime …
    public func systemInfo() async throws(PanelError) -> KeyValueBody {
        let response = try await request(cgi: "systeminfo_cgi", query: "action=get")
        return KeyValueBody(parsing: response.text)
    }

    /// The family from the config, or read from `DeviceModel`, or probed.
    public func detectFamily() async throws(PanelError) -> PanelFamily {
        if let known = detectedFamily.withLock({ $0 }) { return known }
        let family: PanelFamily
        do {
            let info = try await systemInfo()
            if let model = info["DeviceModel"], let fromName = PanelFamily(deviceModel: model) {
                family = fromName
            } else {
                family = try await probeFamily()
            }
        } catch .authRefused, .unsupported {
            // An account that may open doors but not read the model (or firmware without the page):
            // not a wrong password; the fix is naming the family.
            throw .modelUnreadable(panel: name)
        }
        detectedFamily.withLock { $0 = family }
        return family
    }

    /// Unknown model name: DKS firmware has `intercom_cgi`, DS firmware says it is not defined.
    private func probeFamily() async throws(PanelError) -> PanelFamily {
        do {
            _ = try await request(cgi: "intercom_cgi", query: "action=get")
            return .dks
        } catch .unsupported {
            return .ds
        }
    }

    /// Continuous `alarmchangestate_cgi` events over a connection of its own.
    public func alarmStream(options: AlarmStream.Options = .init()) -> AlarmStream {
        AlarmStream(panel: self, options: options)
    }

    // MARK: - Plumbing

    public func url(cgi: String, query: String) -> String {
        query.isEmpty ? "\(baseURL)/cgi-bin/\(cgi)" : "\(baseURL)/cgi-bin/\(cgi)?\(query)"
    }

    /// A GET with the panel-level meaning of statuses and bodies applied.
    func request(cgi: String, query: String) async throws(PanelError) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await client.get(url(cgi: cgi, query: query))
        } catch {
            throw map(error)
        }
        return try check(response, cgi: cgi)
    }

    /// The authentication the panel asked for when it last challenged us ([] before any challenge).
    public var authOffered: HTTPAuthMethods { lastOfferedAuth.withLock { $0 } }

    func check(_ response: HTTPResponse, cgi: String) throws(PanelError) -> HTTPResponse {
        if !response.offeredAuth.isEmpty {
            lastOfferedAuth.withLock { $0 = response.offeredAuth }
        }
        if response.status == 401 {
            // curl, allowed Digest only, did not answer a Basic-only challenge: no password was sent.
            if configuration.auth == .digest, !response.offeredAuth.contains(.digest),
               response.offeredAuth.contains(.basic) {
                throw .basicAuthOnly(panel: name)
            }
            throw .authRefused(panel: name)
        }
        // Only look for the marker in short text answers, never inside a JPEG.
        if response.body.count < 4096, !(response.contentType?.hasPrefix("image/") ?? false),
           response.text.contains("is not defined") {
            throw .unsupported(cgi: cgi)
        }
        switch response.status {
        case 200..<300:
            return response
        case 404:
            throw .unsupported(cgi: cgi)
        case 500...:
            throw .unreachable("panel \(name) failed with HTTP \(response.status) on \(cgi)")
        default:
            throw .badData("panel \(name) answered HTTP \(response.status) to \(cgi)")
        }
    }

    func map(_ error: HTTPError) -> PanelError {
        switch error {
        case .transfer(let failure) where failure.isCertificateFailure:
            // Reached, but not trusted: say so rather than "unreachable", and how to trust it.
            return .unreachable("panel \(name) at \(baseURL) has a certificate we do not trust (\(failure.message)): "
                + "set ca_file = its CA certificate in [panel \(name)], or tls_insecure = on")
        case .transfer(let failure):
            return .unreachable("panel \(name) at \(baseURL) is unreachable: \(failure.message)")
        case .timedOut:
            return .timeout(panel: name, after: configuration.timeout)
        case .tooLarge(let limit):
            return .tooLarge(limit: limit)
        case .cancelled:
            return .cancelled
        case .setup(let failure):
            return .badData("panel \(name): cannot request \(baseURL): \(failure.message)")
        case .unavailable(let missing):
            return .badData("panel \(name): \(missing)")
        }
    }
}
