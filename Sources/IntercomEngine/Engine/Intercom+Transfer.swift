import Foundation
import IntercomBase
import IntercomPhone

extension Intercom {
    /// Passes an answered call on (blind transfer, REFER): the caller is asked to call `target`,
    /// a `[directory]` name or a SIP URI. `call_transferred` reports the outcome.
    func transfer(_ session: CallSession, to target: String, phone: any PhoneService) async throws -> JSONValue {
        guard session.stage == .active else {
            throw IntercomError.noCall("answered")
        }
        let resolved = try Self.transferURI(target, config: config)
        let id = session.info.id
        try await phone.transfer(id, to: resolved.uri)
        calls[id]?.transfer = resolved
        logger.info("call \(id): transfer to \(resolved.name.map { "\($0) (\(resolved.uri))" } ?? resolved.uri) asked for")
        return .object([("call", .string(id.rawValue)), ("to", .string(resolved.uri)), ("target", .optional(resolved.name))])
    }

    /// A `[directory]` name (case-insensitive), else a `sip:`/`sips:` URI as it is.
    static func transferURI(_ target: String, config: IntercomConfig) throws(IntercomError) -> (uri: String, name: String?) {
        if let uri = config.directoryURI(named: target) {
            let name = config.directory.keys.first { $0.lowercased() == target.lowercased() }
            return (uri, name)
        }
        let lower = target.lowercased()
        guard lower.hasPrefix("sip:") || lower.hasPrefix("sips:"), SIPURI(parsing: target) != nil else {
            let names = config.directory.keys.sorted().joined(separator: ", ")
            throw IntercomError.unknownTarget(
                "no '\(target)' in [directory]" + (names.isEmpty ? "" : " (\(names))") + "; give a name from it or a sip: URI")
        }
        return (target, nil)
    }

    /// The phone's word on a transfer: published as `call_transferred`.
    func transferReported(_ id: CallID, uri: String, ok: Bool, detail: String?) {
        guard let session = calls[id] else { return }
        let name = session.transfer?.uri == uri ? session.transfer?.name : nil
        calls[id]?.transfer = nil
        if !ok { logger.warning("call \(id): transfer to \(uri) failed: \(detail ?? "no reason given")") }
        publish(.callTransferred(session.ref, to: uri, target: name, ok: ok, error: ok ? nil : detail))
    }
}
