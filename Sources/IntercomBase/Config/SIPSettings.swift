/// The `[sip]` section.
public struct SIPSettings: Sendable, Equatable {
    public var listen: [ListenAddress]
    public var unknownCallers: UnknownCallerPolicy
    public var account: SIPAccount?
    /// Key `ring_timeout`: an unanswered incoming call is ended as missed after this.
    public var incomingTimeoutSeconds: Int

    public init(listen: [ListenAddress] = [ListenAddress(transport: .udp, host: "127.0.0.1", port: 5060)],
                unknownCallers: UnknownCallerPolicy = .reject,
                account: SIPAccount? = nil,
                incomingTimeoutSeconds: Int = 90) {
        self.listen = listen
        self.unknownCallers = unknownCallers
        self.account = account
        self.incomingTimeoutSeconds = incomingTimeoutSeconds
    }

    public static let defaults = SIPSettings()
}
