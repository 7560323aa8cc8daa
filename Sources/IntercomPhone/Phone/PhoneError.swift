import IntercomBase
/// Failures of the phone, each with its exit code (`ExitCode`; README: Commands, docs/REFERENCE.md).
public enum PhoneError: Error, Equatable, CustomStringConvertible {
    /// liblinphone refused to create or start the core; `code` is its return value.
    case coreStartFailed(code: Int32)
    /// A listen address is already taken by another program.
    case portInUse(ListenAddress)
    /// A listen address that cannot be bound as written.
    case badListenAddress(String, reason: String)
    case noSuchCall(CallID)
    /// The call is in a state where the request makes no sense (answering an established call…).
    case wrongState(CallID, String)
    case badURI(String)
    case badDigits(String)
    /// A setting this liblinphone build cannot carry out; the text says which and what to do.
    case unsupported(String)
    case stopped

    public var exitCode: Int32 {
        switch self {
        case .portInUse, .coreStartFailed: 69
        case .badListenAddress, .badURI, .badDigits, .unsupported: 65
        default: 1
        }
    }

    public var description: String {
        switch self {
        case .coreStartFailed(let code):
            "the SIP stack failed to start (liblinphone code \(code)): check [sip] listen and the data directory"
        case .portInUse(let address):
            "cannot listen on \(address): the port is in use; stop the other program or change [sip] listen"
        case .badListenAddress(let address, let reason):
            "cannot listen on \(address): \(reason); fix [sip] listen"
        case .noSuchCall(let id):
            "no call \(id): list calls with 'intercom ctl status'"
        case .wrongState(let id, let what):
            "call \(id): \(what)"
        case .badURI(let uri):
            "'\(uri)' is not a SIP address: write it as sip:user@host[:port]"
        case .badDigits(let digits):
            "'\(digits)' has characters DTMF cannot send: use 0-9, *, #, A-D"
        case .unsupported(let what):
            what
        case .stopped:
            "the phone has stopped"
        }
    }
}
