/// Why a live stream could not be played, or stopped playing, in terms a user can act on.
/// Descriptions are one line and name the stream by `VideoSource.displayName`, which never carries
/// the password: callers print them as is.
public enum VideoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server asked for credentials and refused the ones given (RTSP/HTTP 401 or 403).
    case authRefused(stream: String)
    /// Nothing to play: connection refused, host down, no such stream (404), no answer within the
    /// open timeout.
    case unavailable(stream: String, reason: String)
    /// The stream played, then stopped: the server closed it or sent nothing within the read timeout.
    case ended(stream: String, reason: String)
    /// The server answered with something this build cannot decode (no video track, unknown codec).
    case badData(stream: String, reason: String)

    /// The CLI's exit status: 77 auth refused, 69 unavailable peer, 65 bad data.
    public var exitCode: Int32 {
        switch self {
        case .authRefused: return 77
        case .unavailable, .ended: return 69
        case .badData: return 65
        }
    }

    public var description: String {
        switch self {
        case .authRefused(let stream):
            return "stream \(stream) refused the user/password: check the panel's user and password"
        case .unavailable(let stream, let reason):
            return "stream \(stream) is unavailable: \(reason)"
        case .ended(let stream, let reason):
            return "stream \(stream) stopped: \(reason)"
        case .badData(let stream, let reason):
            return "stream \(stream) cannot be played: \(reason)"
        }
    }
}
