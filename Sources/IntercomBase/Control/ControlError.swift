import Foundation

/// Why the control socket or its client could not do its job.
public enum ControlError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing listens on the socket (missing file or connection refused).
    case noDaemon(String)
    /// Another daemon already answers on the socket.
    case alreadyRunning(String)
    case pathTooLong(String)
    case notASocket(String)
    case system(String, Int32)
    /// The socket's directory is in shared space and not ours alone (PrivateDirectoryError's line).
    case unsafeDirectory(String)
    /// The daemon did not answer within the client's timeout.
    case timedOut(String, seconds: Double)
    /// The socket is served by a process of another user.
    case foreignDaemon(String, uid: UInt32, ownUID: UInt32)
    /// The daemon closed the connection before replying.
    case closed
    /// The daemon sent something that is not a reply line.
    case badReply(String)

    public var description: String {
        switch self {
        case .noDaemon(let path): "no daemon listening on \(path): start 'intercom daemon'"
        case .alreadyRunning(let path): "another intercom daemon is already listening on \(path); stop it first"
        case .pathTooLong(let path): "control socket path is too long for a Unix socket: \(path); set [daemon] socket to a shorter path"
        case .notASocket(let path): "\(path) exists and is not a socket; remove it or set [daemon] socket elsewhere"
        case .system(let what, let code): "\(what) failed: \(String(cString: strerror(code)))"
        case .unsafeDirectory(let line): line
        case .timedOut(let path, let seconds):
            "the daemon on \(path) did not answer within \(Self.seconds(seconds)) s; it may be stuck or out of file descriptors: check its log, or raise --timeout"
        case .foreignDaemon(let path, let uid, let own):
            "\(path) is served by uid \(uid), not by your user (uid \(own)); refusing to talk to it: remove the socket or set [daemon] socket"
        case .closed: "the daemon closed the connection without replying"
        case .badReply(let line): "the daemon sent an unreadable reply: \(line.prefix(200))"
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Exit codes (`ExitCode`): nobody listening / somebody else listening are "unavailable".
    public var exitCode: Int32 {
        switch self {
        case .noDaemon, .alreadyRunning, .timedOut, .foreignDaemon: 69
        default: 1
        }
    }
}
