/// The `[sip]` section.
public struct SIPSettings: Sendable, Equatable {
    public var listen: [ListenAddress]
    public var unknownCallers: UnknownCallerPolicy
    public var account: SIPAccount?
    /// Key `ring_timeout`: an unanswered incoming call is ended as missed after this.
    public var incomingTimeoutSeconds: Int
    /// Keys `tls_cert`, `tls_key`, `tls_ca`, `tls_verify`.
    public var tls: SIPTLSSettings
    /// Key `media_encryption`.
    public var mediaEncryption: MediaEncryption
    /// Key `decline_others`: answering one call declines the others still ringing (a household with
    /// one door); off keeps them ringing in the queue (a concierge desk).
    public var declineOthersOnAnswer: Bool
    /// Key `media_timeout`: an answered call whose caller sends no RTP or RTCP for this long is
    /// ended with reason `error` (a panel that lost power or network never sends BYE).
    public var mediaTimeoutSeconds: Int
    /// Key `max_calls`: calls held at once before the next is refused 486 Busy (reported and
    /// journaled as missed, reason `busy`); nil = `automaticMaxCalls` for the configured panels.
    public var maxCalls: Int?

    public init(listen: [ListenAddress] = [ListenAddress(transport: .udp, host: "127.0.0.1", port: 5060)],
                unknownCallers: UnknownCallerPolicy = .reject,
                account: SIPAccount? = nil,
                incomingTimeoutSeconds: Int = 90,
                tls: SIPTLSSettings = SIPTLSSettings(),
                mediaEncryption: MediaEncryption = .none,
                declineOthersOnAnswer: Bool = false,
                mediaTimeoutSeconds: Int = 30,
                maxCalls: Int? = nil) {
        self.listen = listen
        self.unknownCallers = unknownCallers
        self.account = account
        self.incomingTimeoutSeconds = incomingTimeoutSeconds
        self.tls = tls
        self.mediaEncryption = mediaEncryption
        self.declineOthersOnAnswer = declineOthersOnAnswer
        self.mediaTimeoutSeconds = mediaTimeoutSeconds
        self.maxCalls = maxCalls
    }

    /// Calls at once when `max_calls` is not set: every panel ringing together, plus a few
    /// (callers through a registrar, a call we place, a panel calling again), and never less
    /// than liblinphone's own default of 10.
    public static func automaticMaxCalls(panels: Int) -> Int { max(10, panels + 4) }

    /// `max_calls`, else the automatic number for this many panels.
    public func effectiveMaxCalls(panels: Int) -> Int { maxCalls ?? Self.automaticMaxCalls(panels: panels) }

    public static let defaults = SIPSettings()
}
