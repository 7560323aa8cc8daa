import IntercomBase
import IntercomOperator
import IntercomPanel
import IntercomPhone
/// Why a command could not be carried out; one line each, with its exit code (`ExitCode`).
public enum IntercomError: Error, Equatable, CustomStringConvertible {
    case noCall(String)
    case notStarted
    case phone(PhoneError)
    case panel(PanelError)
    /// An operator's API refused or could not be reached (its line names `intercom login` when due).
    case operatorRequest(OperatorError)
    /// A panel name that the config does not have, or none where one is needed.
    case unknownPanel(String)
    /// A transfer target that is neither a `[directory]` name nor a SIP URI.
    case unknownTarget(String)
    /// A target this kind of transfer cannot reach (an attended transfer to a port liblinphone
    /// would leave out of the hand-over).
    case unsupportedTarget(String)
    /// A call we placed failed before it got going.
    case callFailed(String)
    /// A rule refused the command (an automatic opening too soon, or in an unconfirmed call).
    case refused(String)
    /// An opening that named no door while a call from no panel is held (a stranger's under
    /// `unknown_callers = accept`, a consultation): it is never guessed which door was meant.
    case notAPanelCall(CallID, caller: String)
    /// A camera that exists but cannot be played (no stream address, an unsupported video server).
    case cameraUnplayable(String)
    /// A do-not-disturb or guest switch that could not be saved in the state folder (exit 1: the
    /// contract's "anything else"; the line names the folder, the cause and the fix).
    case switchNotSaved(String)
    /// A recording asked from a time the camera keeps none of (`cctv/ranges`): the line says where it resumes.
    case noRecording(String)
    /// A request's value the engine cannot take (a flat setting `intercom settings` would refuse).
    case invalidRequest(String)
    /// The command does not fit where the call is (completing a consultation nobody answered yet…).
    case notNow(String)

    public var exitCode: Int32 {
        switch self {
        case .phone(let error): error.exitCode
        case .panel(let error): error.exitCode
        case .operatorRequest(let error): error.exitCode
        case .unknownPanel, .unknownTarget, .unsupportedTarget, .invalidRequest: 64
        case .callFailed, .cameraUnplayable: 69
        case .noRecording: 65
        case .refused, .notAPanelCall: 77
        default: 1
        }
    }

    public var description: String {
        switch self {
        case .noCall(let what): "no \(what) call"
        case .notStarted: "the SIP phone is not running"
        case .phone(let error): error.description
        case .panel(let error): error.description
        case .operatorRequest(let error): error.description
        case .notAPanelCall(let id, let caller):
            "call \(id) (\(caller)) is not from a panel, so no door opens in it: open a panel's door by name: intercom open NAME"
        case .unknownPanel(let message), .unknownTarget(let message), .unsupportedTarget(let message), .callFailed(let message), .refused(let message),
             .cameraUnplayable(let message), .switchNotSaved(let message), .notNow(let message),
             .noRecording(let message), .invalidRequest(let message):
            message
        }
    }
}
