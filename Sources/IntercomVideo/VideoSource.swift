import Foundation

/// Where a live stream comes from and how long to wait for it. The credentials stay out of `url`
/// so that nothing that prints the URL can print the password.
public struct VideoSource: Sendable, Equatable {
    /// `rtsp://HOST:PORT/PATH` (a panel) or `http(s)://…` (HLS), without `user:password@`.
    public var url: String
    public var user: String?
    public var password: String?
    /// Connecting and the RTSP/HTTP setup together, the first frame excluded.
    public var openTimeout: Duration
    /// The longest silence on an open stream before it counts as ended.
    public var readTimeout: Duration

    public init(url: String, user: String? = nil, password: String? = nil,
                openTimeout: Duration = .seconds(10), readTimeout: Duration = .seconds(5)) {
        self.url = url
        self.user = user
        self.password = password
        self.openTimeout = openTimeout
        self.readTimeout = readTimeout
    }

    /// The URL without userinfo or query (tokens), for messages.
    public var displayName: String {
        guard var parts = URLComponents(string: url) else { return "(unparsable URL)" }
        parts.user = nil
        parts.password = nil
        parts.query = nil
        return parts.string ?? "(unparsable URL)"
    }

    var isRTSP: Bool { url.lowercased().hasPrefix("rtsp://") || url.lowercased().hasPrefix("rtsps://") }

    /// The URL FFmpeg opens: the credentials as userinfo, percent-encoded (FFmpeg decodes them
    /// before answering a Basic or Digest challenge). Never shown to anyone.
    func urlForFFmpeg() throws(VideoError) -> String {
        guard var parts = URLComponents(string: url), parts.scheme != nil, parts.host != nil else {
            throw .badData(stream: displayName, reason: "\"\(displayName)\" is not a stream URL (rtsp://HOST/PATH)")
        }
        if let user, !user.isEmpty {
            parts.percentEncodedUser = Self.encode(user)
            parts.percentEncodedPassword = password.map(Self.encode)
        }
        guard let text = parts.string else {
            throw .badData(stream: displayName, reason: "the URL cannot carry these credentials")
        }
        return text
    }

    /// Everything but unreserved characters, so ':' '@' '/' in a password cannot split the URL.
    private static func encode(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
