/// What the streams of an established call carry.
public struct CallMedia: Sendable, Equatable {
    /// e.g. `PCMA/8000`.
    public var audioCodec: String?
    /// e.g. `H264/90000`; nil when the call runs without video.
    public var videoCodec: String?
    /// How the media is protected: `none` (plain RTP), `srtp`, `zrtp` or `dtls`.
    public var encryption: String
    public init(audioCodec: String?, videoCodec: String?, encryption: String = "none") {
        self.audioCodec = audioCodec
        self.videoCodec = videoCodec
        self.encryption = encryption
    }
}
