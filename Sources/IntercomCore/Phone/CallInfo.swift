/// What is known about a call when it appears.
public struct CallInfo: Sendable, Equatable {
    public var id: CallID
    public var direction: CallDirection
    /// The caller's SIP URI (`sip:100001@192.168.1.50`).
    public var from: String
    /// The callee's SIP URI.
    public var to: String
    /// The host the remote side signals from: its Contact host, else its From host.
    public var remoteHost: String?
    public var offersVideo: Bool

    public init(id: CallID, direction: CallDirection, from: String, to: String, remoteHost: String?, offersVideo: Bool) {
        self.id = id
        self.direction = direction
        self.from = from
        self.to = to
        self.remoteHost = remoteHost
        self.offersVideo = offersVideo
    }
}
