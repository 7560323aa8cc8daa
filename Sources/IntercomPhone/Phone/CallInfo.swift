import IntercomBase
/// What is known about a call when it appears.
public struct CallInfo: Sendable, Equatable {
    public var id: CallID
    public var direction: CallDirection
    /// The caller's SIP URI (`sip:100001@192.168.1.50`).
    public var from: String
    /// The callee's SIP URI.
    public var to: String
    /// The host the remote side names as its own: its Contact host, else its From host. The
    /// caller wrote it; it identifies nobody.
    public var remoteHost: String?
    /// The address the INVITE really came from (the datagram's source, the TCP peer), as the
    /// read hook saw it; nil for outgoing calls, or when it is unknown or was ambiguous.
    public var source: String?
    public var offersVideo: Bool
    /// The SIP Call-ID of an incoming call's INVITE: through a forking proxy it is the same at
    /// every desk the call rang at, so the desks of a site (`[site]`) name the call by it.
    public var sipCallID: String?

    public init(id: CallID, direction: CallDirection, from: String, to: String, remoteHost: String?,
                source: String? = nil, offersVideo: Bool, sipCallID: String? = nil) {
        self.sipCallID = sipCallID
        self.id = id
        self.direction = direction
        self.from = from
        self.to = to
        self.remoteHost = remoteHost
        self.source = source
        self.offersVideo = offersVideo
    }
}
