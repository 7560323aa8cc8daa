import IntercomBase
/// What the phone needs to run: derived from `[sip]`/`[audio]` by the engine, or built by hand in tests.
public struct PhoneSettings: Sendable {
    public enum Audio: Sendable, Equatable {
        /// Real sound devices by liblinphone id; nil = the core's default.
        case devices(playback: String?, capture: String?)
        /// No sound card: send `play` (a 16-bit WAV, looped by liblinphone) and write what we hear to `record`.
        case files(play: String?, record: String?)
    }

    public enum Video: Sendable, Equatable {
        /// Receive the panel's video, send none (a resident has no camera).
        case receive
        /// Send a still JPEG as our camera (the simulated panel, tests) and receive.
        case sendPicture(path: String, fps: Double)
        /// Send mediastreamer's moving test pattern ("Mire").
        case sendTestPattern
        case off
    }

    public var listen: [ListenAddress]
    public var account: SIPAccount?
    /// liblinphone's database and secrets go here, never into $HOME.
    public var dataDirectory: String
    /// The user part of our Contact (`sip:USER@host`).
    public var user: String
    public var displayName: String?
    /// Seconds an unanswered incoming call rings before the phone gives up (panels ring ~60 s).
    public var incomingTimeoutSeconds: Int
    public var audio: Audio
    public var video: Video
    /// Payload type names in preference order, e.g. ["PCMA", "PCMU"]; nil keeps liblinphone's list.
    public var audioCodecs: [String]?
    public var videoCodecs: [String]?
    /// The RTP session ends after this many seconds without any packet from the other side.
    public var noRTPTimeoutSeconds: Int
    public var userAgent: String
    /// A WAV liblinphone plays on the playback device while a call rings; nil = silent (headless).
    public var ringtone: String?
    /// Trust and client certificate for SIP over TLS (a TLS registrar); verification on by default.
    public var tls: SIPTLSSettings
    /// SRTP for call media; `none` (plain RTP, what Beward panels speak) by default.
    public var mediaEncryption: MediaEncryption
    /// Calls the core holds at once, ringing or answered, incoming and outgoing; one more is
    /// refused with 486 Busy (and reported: `PhoneEvent.refusedBusy`). liblinphone's own default is 10.
    public var maxCalls: Int
    /// When set, new UDP INVITEs from callers it refuses (impostors; strangers under
    /// `unknown_callers = reject`) get 403 before liblinphone sees them.
    public var callerGate: CallerGate?

    public init(
        listen: [ListenAddress],
        account: SIPAccount? = nil,
        dataDirectory: String,
        user: String = "intercom",
        displayName: String? = nil,
        incomingTimeoutSeconds: Int = 90,
        audio: Audio = .devices(playback: nil, capture: nil),
        video: Video = .receive,
        audioCodecs: [String]? = ["PCMA", "PCMU", "opus"],
        videoCodecs: [String]? = ["H264", "VP8"],
        noRTPTimeoutSeconds: Int = 30,
        userAgent: String = "intercom/\(IntercomVersion.string)",
        ringtone: String? = nil,
        tls: SIPTLSSettings = SIPTLSSettings(),
        mediaEncryption: MediaEncryption = .none,
        maxCalls: Int = 10,
        callerGate: CallerGate? = nil
    ) {
        self.listen = listen
        self.account = account
        self.dataDirectory = dataDirectory
        self.user = user
        self.displayName = displayName
        self.incomingTimeoutSeconds = incomingTimeoutSeconds
        self.audio = audio
        self.video = video
        self.audioCodecs = audioCodecs
        self.videoCodecs = videoCodecs
        self.noRTPTimeoutSeconds = noRTPTimeoutSeconds
        self.userAgent = userAgent
        self.ringtone = ringtone
        self.tls = tls
        self.mediaEncryption = mediaEncryption
        self.maxCalls = maxCalls
        self.callerGate = callerGate
    }
}
