/// What went wrong talking to a panel, in terms a user can act on.
/// Descriptions are one line and never carry the password: callers print them as is.
public enum PanelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No answer: connection refused, host down, TLS failure, dropped connection.
    case unreachable(String)
    /// HTTP 401 after curl answered the challenge: the credentials are wrong.
    case authRefused(panel: String)
    /// HTTP 401 with a Basic-only challenge while the config allows Digest only: the password was not sent.
    case basicAuthOnly(panel: String)
    /// `model = auto`, but `systeminfo_cgi` refused this account (or is missing): the family is unknown.
    case modelUnreadable(panel: String)
    /// A door or output request answered 200 with something other than `OK`: the panel's own words.
    case doorReply(panel: String, request: String, said: String)
    /// The firmware has no such CGI (body says "… is not defined").
    case unsupported(cgi: String)
    /// The panel answers, but its firmware has no alarm stream; `said` is what it did instead.
    case noAlarmStream(panel: String, said: String)
    /// An answer that is not what the API promises (not a JPEG, not "OK", unknown status).
    case badData(String)
    /// The panel accepted the connection but did not finish in time.
    case timeout(panel: String, after: Duration)
    /// The body grew past the cap; probably not a panel, or a broken one.
    case tooLarge(limit: Int)
    /// The calling task was cancelled.
    case cancelled

    /// The CLI's exit status for this error (`ExitCode`: 65 data, 69 unavailable, 77 auth).
    public var exitCode: Int32 {
        switch self {
        case .unreachable, .unsupported, .noAlarmStream, .timeout: return 69
        case .authRefused, .basicAuthOnly, .modelUnreadable: return 77
        case .badData, .tooLarge, .doorReply: return 65
        case .cancelled: return 1
        }
    }

    public var description: String {
        switch self {
        case .unreachable(let why):
            return why
        case .authRefused(let panel):
            return "panel \(panel) refused the user/password: check user, password and auth = (digest|basic) in [panel \(panel)]"
        case .basicAuthOnly(let panel):
            return "panel \(panel) asked for Basic authentication, which shows the password to anyone on the path; "
                + "nothing was sent: enable Digest on the panel, or set auth = basic in [panel \(panel)] to allow Basic"
        case .modelUnreadable(let panel):
            return "panel \(panel) would not tell its model (systeminfo_cgi refused or missing): if user and password "
                + "are right, this account may open doors but not read it: set model = dks|ds in [panel \(panel)]"
        case .doorReply(let panel, let request, let said):
            let words = said.isEmpty ? "nothing" : "\"\(said)\""
            return "panel \(panel) answered \(words) instead of OK to \(request): the door may or may not have opened"
        case .unsupported(let cgi):
            return "this panel's firmware has no \(cgi) (it answered \"is not defined\")"
        case .noAlarmStream(let panel, let said):
            return "panel \(panel) has no alarm stream (alarmchangestate_cgi \(said)): no button, motion or relay "
                + "events from it; doors and calls still work; it is asked again at the longest back-off"
        case .badData(let why):
            return why
        case .timeout(let panel, let after):
            return "panel \(panel) did not answer within \(after.formattedSeconds): check that it is powered and reachable"
        case .tooLarge(let limit):
            return "the panel sent more than \(limit) bytes; refusing to read further"
        case .cancelled:
            return "cancelled"
        }
    }
}

extension Duration {
    var formattedSeconds: String {
        let (s, atto) = components
        let tenths = atto / 100_000_000_000_000_000
        return tenths == 0 ? "\(s) s" : "\(s).\(tenths) s"
    }
}
