import Foundation

/// One `[panel NAME]` section: how to reach a Beward panel and how to treat its calls.
public struct PanelConfig: Sendable, Equatable {
    public var name: String
    /// HTTP(S) base URL without a trailing slash, so CGI paths can be appended.
    public var url: String
    public var user: String
    public var password: String?
    public var model: PanelModel
    /// Which of the calls that come from `sources` are this panel's (several panels may share
    /// one address, a SIP server may carry calls of many); empty = every call from its sources.
    /// Through the `[sip] account`'s registrar, where the source says nothing, a non-empty
    /// `match` alone tells the panel.
    public var match: [CallerMatch]
    /// `source = IP[, IP]`: the addresses the panel's SIP packets come from. Empty = the host of
    /// `url` (see `sourceAddresses`).
    public var source: [String]
    /// Automatic door openings (guest mode, hooks) at most once per this many seconds; 0 = no limit.
    public var autoOpenInterval: Double
    public var dtmfMain: String
    public var dtmfAlt: String
    public var dtmfTiming: DTMFTiming
    public var open: DoorOpenMethod
    public var peepholeFPS: Double
    /// false = do not disturb for this panel.
    public var calls: Bool
    public var autoAnswer: AutoAnswer
    /// "Wait for guests" mode is active until this instant.
    public var guestUntil: Date?
    /// Skip certificate checks for panels with self-signed certificates.
    public var tlsInsecure: Bool
    public var caFile: String?
    /// The HTTP authentication answered; Basic only when the config says so (`PanelAuth`).
    public var auth: PanelAuth = .digest
    /// RTSP/video stream choice, `main` or `sub`; nil = the panel's default.
    public var stream: String?
    /// The SIP URI `intercom call` dials; nil = derived (`dialURI`).
    public var dial: String?
    /// The camera's main RTSP stream (`rtspURL`) and its sub stream for small tiles (`rtspSubURL`).
    public var rtsp: PanelStreamSetting = .derived
    public var rtspSub: PanelStreamSetting = .derived
    /// Which of this panel's calls leave a video clip in the journal.
    public var record: RecordMode = .off
    /// `syslog`: hear this panel's syslog (`on`), or not (`off`); nil follows `[syslog]`'s presence.
    public var syslog: Bool?

    public init(name: String, url: String, user: String = "admin", password: String? = nil,
                model: PanelModel = .auto, match: [CallerMatch]? = nil,
                dtmfMain: String = "1", dtmfAlt: String = "2",
                dtmfTiming: DTMFTiming = .defaults, open: DoorOpenMethod = .http,
                peepholeFPS: Double = 3, calls: Bool = true, autoAnswer: AutoAnswer = .off,
                guestUntil: Date? = nil, tlsInsecure: Bool = false, caFile: String? = nil,
                stream: String? = nil, source: [String] = [], autoOpenInterval: Double = 5) {
        self.name = name
        self.url = url
        self.user = user
        self.password = password
        self.model = model
        self.match = match ?? []
        self.source = source
        self.autoOpenInterval = autoOpenInterval
        self.dtmfMain = dtmfMain
        self.dtmfAlt = dtmfAlt
        self.dtmfTiming = dtmfTiming
        self.open = open
        self.peepholeFPS = peepholeFPS
        self.calls = calls
        self.autoAnswer = autoAnswer
        self.guestUntil = guestUntil
        self.tlsInsecure = tlsInsecure
        self.caFile = caFile
        self.stream = stream
    }

    /// Whether `match` accepts a caller with this From (`uri`) arriving from `ip`; an empty
    /// `match` accepts every caller. Who may call at all is the sources' question (`CallerDirectory`).
    public func matches(uri: String, ip: String?) -> Bool {
        match.isEmpty || match.contains { $0.matches(uri: uri, ip: ip) }
    }

    /// Where the panel's packets may come from: `source`, else the host of `url`. A host name
    /// stays a name here; the engine resolves it (IntercomBase does no DNS).
    public var sourceAddresses: [String] {
        if !source.isEmpty { return source }
        return urlHost.map { [$0] } ?? []
    }

    /// Whether "wait for guests" is in force at `date`.
    public func isGuestModeActive(at date: Date) -> Bool {
        guard let guestUntil else { return false }
        return date < guestUntil
    }

    /// What `intercom call` dials: `dial`, else a `match` URI that names a host
    /// (`sip:100001@192.168.1.50`), else `sip:` the IP of a `match` rule or of the URL.
    public var dialURI: String? {
        if let dial { return dial }
        for rule in match {
            if case .uriPrefix(let prefix) = rule, let at = prefix.firstIndex(of: "@"),
               prefix.index(after: at) < prefix.endIndex {
                return prefix
            }
        }
        // An IPv6 literal is bracketed in a URI.
        func uri(host: String) -> String { "sip:" + (host.contains(":") ? "[\(host)]" : host) }
        for rule in match {
            if case .ip(let ip) = rule { return uri(host: ip) }
        }
        return (source.first ?? urlHost).map(uri(host:))
    }

    /// The main stream to play, without credentials: `rtsp`, else `rtsp://HOST:554/av0_0` from `url`;
    /// nil when `rtsp = off`.
    public var rtspURL: String? {
        switch rtsp {
        case .off: return nil
        case .url(let url): return url
        case .derived:
            return urlHost.map { "rtsp://" + ($0.contains(":") ? "[\($0)]" : $0) + ":554/av0_0" }
        }
    }

    /// The sub stream for small pictures (kiosk tiles): `rtsp_sub`, else the main stream's URL with
    /// `av0_0` turned into `av0_1`, else the main stream itself; nil when off or without a main stream.
    public var rtspSubURL: String? {
        switch rtspSub {
        case .off: return nil
        case .url(let url): return url
        case .derived:
            guard let main = rtspURL else { return nil }
            return main.hasSuffix("/av0_0") ? String(main.dropLast(5)) + "av0_1" : main
        }
    }

    /// The host of the URL (brackets removed), or nil when it has none.
    public var urlHost: String? {
        PanelConfig.host(ofURL: url)
    }

    static func host(ofURL url: String) -> String? {
        URLAddress(parsing: url)?.host
    }
}
