import Foundation
import IntercomPhone
import IntercomBase

/// The SIP side of a simulated Beward panel: who it calls as, what it offers, which digits open doors.
/// Defaults follow beward-http-api.md §6: PCMA + H.264, RFC 2833 digits 1/2/3, 60 s ring time.
public struct SimulatedPanelSIPOptions: Sendable {
    /// The user part of From: `sip:100001@127.0.0.1` (SmartYard panels register as `1XXXXX`).
    public var user: String
    public var displayName: String?
    public var listen: ListenAddress
    /// liblinphone's files and the scene picture; nil = a fresh temporary directory, removed by `stop()`.
    public var dataDirectory: String?
    public var mainDoorDigit: Character
    public var altDoorDigit: Character
    public var lightDigit: Character
    /// The same door digit again within this time is the same opening (SmartYard sends "111").
    public var repeatWindow: Duration
    /// An unanswered call is cancelled after this long (a panel's `CallTimeout`); nil = ring until the callee gives up.
    public var ringTimeout: Duration?
    public var audioCodecs: [String]
    public var videoCodecs: [String]
    /// Never a sound card: what the panel "says" (a WAV, or silence) and where what it hears goes.
    public var audio: PhoneSettings.Audio
    /// Frames per second of the still scene sent as the panel's camera.
    public var videoFPS: Double
    /// Calls made to the panel (a live view, `AllowIncoming`) are answered with video.
    public var answersIncomingCalls: Bool

    public init(
        user: String = "100001",
        displayName: String? = nil,
        listen: ListenAddress = ListenAddress(transport: .udp, host: "127.0.0.1", port: 0),
        dataDirectory: String? = nil,
        mainDoorDigit: Character = "1",
        altDoorDigit: Character = "2",
        lightDigit: Character = "3",
        repeatWindow: Duration = .seconds(2),
        ringTimeout: Duration? = .seconds(60),
        audioCodecs: [String] = ["PCMA", "PCMU"],
        videoCodecs: [String] = ["H264", "VP8"],
        audio: PhoneSettings.Audio = .files(play: nil, record: nil),
        videoFPS: Double = 5,
        answersIncomingCalls: Bool = true
    ) {
        self.user = user
        self.displayName = displayName
        self.listen = listen
        self.dataDirectory = dataDirectory
        self.mainDoorDigit = mainDoorDigit
        self.altDoorDigit = altDoorDigit
        self.lightDigit = lightDigit
        self.repeatWindow = repeatWindow
        self.ringTimeout = ringTimeout
        self.audioCodecs = audioCodecs
        self.videoCodecs = videoCodecs
        self.audio = audio
        self.videoFPS = videoFPS
        self.answersIncomingCalls = answersIncomingCalls
    }

    /// The door a received digit opens, if any.
    public func door(forDigit digit: Character) -> Door? {
        let upper = Character(digit.uppercased())
        if upper == mainDoorDigit { return .main }
        if upper == altDoorDigit { return .alt }
        if upper == lightDigit { return .light }
        return nil
    }
}
