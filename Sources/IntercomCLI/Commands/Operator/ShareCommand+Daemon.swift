import Foundation
import IntercomBase
import IntercomOperator

/// `share --until` hands the end to this user's daemon, which keeps it (the operator's server keeps
/// none) and takes the access back then; `share --remove` and `share` without an end make it forget one.
extension ShareCommand {
    /// What the daemon said to a `share_expiry` request.
    enum DaemonAnswer {
        case done
        /// No daemon answers on the socket (not running, or not ours).
        case absent(String)
        case refused(String)
    }

    static func tellDaemon(_ change: ShareExpiry.Change, socket: String) -> DaemonAnswer {
        do throws(ControlError) {
            let client = try ControlClient(path: socket, timeout: .seconds(5))
            let reply = try client.request(ControlRequest(id: .integer(1), action: .shareExpiry(change)))
            guard reply["ok"] == .bool(true) else {
                return .refused(reply["error"]?.stringValue ?? "the daemon refused it")
            }
            return .done
        } catch {
            switch error {
            case .timedOut, .badReply: return .refused(error.description)
            default: return .absent(error.description)
            }
        }
    }

    /// The line `share --until` ends with: who will end the access, and when.
    static func untilOutcome(_ expiry: ShareExpiry, phone: String, socket: String) -> (text: String, code: Int32) {
        let end = shown(expiry.until)
        switch tellDaemon(.keep(expiry), socket: socket) {
        case .done:
            return ("+\(phone) has access until \(end); this intercom's daemon takes it back then "
                    + "(the operator's server keeps no end time; 'intercom share --list' shows it)", ExitCode.ok)
        case .absent:
            return ("+\(phone) has access; the operator will not end it (its server keeps no end time) and no intercom "
                    + "daemon runs to end it at \(end): start 'intercom daemon' and run this again, or run "
                    + "'intercom share \(phone) --remove' then", ExitCode.ok)
        case .refused(let why):
            return ("+\(phone) has access, but the daemon did not keep its end (\(why)); the operator will not end it: "
                    + "run 'intercom share \(phone) --remove' at \(end)", ExitCode.unavailable)
        }
    }
}
