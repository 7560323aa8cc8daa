import Foundation
import IntercomBase
import IntercomPhone

/// Where a transfer may go, and the words of a failed consultation.
extension CallTransfer {
    /// A `[directory]` name (case-insensitive), else a `sip:`/`sips:` URI as it is.
    static func target(_ target: String, config: IntercomConfig) throws(IntercomError) -> Target {
        if let uri = config.directoryURI(named: target) {
            let name = config.directory.keys.first { $0.lowercased() == target.lowercased() }
            return Target(uri: uri, name: name)
        }
        let lower = target.lowercased()
        guard lower.hasPrefix("sip:") || lower.hasPrefix("sips:"), SIPURI(parsing: target) != nil else {
            let names = config.directory.keys.sorted().joined(separator: ", ")
            throw IntercomError.unknownTarget(
                "no '\(target)' in [directory]" + (names.isEmpty ? "" : " (\(names))") + "; give a name from it or a sip: URI")
        }
        return Target(uri: target, name: nil)
    }

    /// liblinphone 5.1 writes the consultation's To without the target's port, and the hand-over's
    /// Refer-To is that To: the caller would call the target's host at the default port and the
    /// transfer would fail after the whole consultation. Refused before the caller is put on hold
    /// (DECISIONS.md, "Attended transfer end to end"); a blind transfer keeps the port.
    static func checkHandOverReaches(_ target: Target) throws(IntercomError) {
        guard let uri = SIPURI(parsing: target.uri), let port = uri.port else { return }
        let standard: UInt16 = uri.scheme == .sips ? 5061 : 5060
        guard port != standard else { return }
        let who = target.name.map { "\($0) (\(target.uri))" } ?? target.uri
        throw .unsupportedTarget(
            "no attended transfer to \(who): liblinphone leaves port \(port) out of the hand-over, so the caller would call "
            + "\(uri.host):\(standard); transfer blind instead (t, 'intercom ctl transfer \(target.name ?? target.uri)') "
            + "or reach the target on port \(standard) (its SIP server)")
    }

    /// Why a consultation's call ended, in the words of a failed blind transfer's reasons.
    static func consultEnd(_ reason: CallEndReason, detail: String?, who: String) -> String {
        let kind = switch reason {
        case .declined where detail?.lowercased().contains("busy") == true: "busy"
        case .declined, .busy: "refused"
        case .missed: "timeout: nobody answered"
        case .remoteHangup: "\(who) hung up"
        default: "failed"
        }
        return detail.map { "\(kind) (\($0))" } ?? kind
    }
}
