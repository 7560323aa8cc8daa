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
        // Kept before the REFER goes: the actor is reentered while the phone sends it, and a panel that
        // refuses at once (405) is reported before `phone.transfer` returns; the report names the
        // target from here (seen in a run: the journal had the bare URI instead of "flat12 <…>").
        calls[id]?.transfer = resolved
        do {
            try await phone.transfer(id, to: resolved.uri)
        } catch {
            if calls[id]?.transfer?.uri == resolved.uri { calls[id]?.transfer = nil }
            throw error
        }
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

    /// The phone's word on a transfer: published as `call_transferred`. An attended transfer's
    /// target is the consultation's (the phone knows it by the address liblinphone resolved); a
    /// refused one leaves the consultation up, to try again or cancel.
    func transferReported(_ id: CallID, uri: String, ok: Bool, detail: String?) {
        guard let session = calls[id] else { return }
        let attended = session.consult != nil
        let name = session.transfer?.uri == uri || attended ? session.transfer?.name : nil
        let to = attended ? session.transfer?.uri ?? uri : uri
        calls[id]?.transfer = nil
        if attended && !ok { calls[id]?.consult?.completing = false }
        if !ok { logger.warning("call \(id): transfer to \(to) failed: \(detail ?? "no reason given")") }
        publish(.callTransferred(session.ref, to: to, target: name, ok: ok, error: ok ? nil : detail ?? "failed: no reason given"))
    }
}
