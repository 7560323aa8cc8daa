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
        let resolved = try CallTransfer.target(target, config: config)
        let id = session.info.id
        // Kept before the REFER goes: the actor is reentered while the phone sends it, and a panel that
        // refuses at once (405) is reported before `phone.transfer` returns; the report names the
        // target from here (seen in a run: the journal had the bare URI instead of "flat12 <…>").
        calls[id]?.transfer.ask(resolved)
        do {
            try await phone.transfer(id, to: resolved.uri)
        } catch {
            calls[id]?.transfer.askFailed(resolved)
            throw error
        }
        logger.info("call \(id): transfer to \(resolved.name.map { "\($0) (\(resolved.uri))" } ?? resolved.uri) asked for")
        return .object([("call", .string(id.rawValue)), ("to", .string(resolved.uri)), ("target", .optional(resolved.name))])
    }

    /// Attended transfer's steps (`AttendedTransferFlow`).
    func attendedTransfer(_ id: CallID?, step: AttendedTransferStep, phone: any PhoneService) async throws -> JSONValue {
        try await AttendedTransferFlow(phone: phone).step(id, step, on: self)
    }

    /// The phone's word on a transfer: published as `call_transferred` (`CallTransfer.reported`).
    func transferReported(_ id: CallID, uri: String, ok: Bool, detail: String?) {
        guard let ref = calls[id]?.ref, let (to, name) = calls[id]?.transfer.reported(uri: uri, ok: ok) else { return }
        if !ok { logger.warning("call \(id): transfer to \(to) failed: \(detail ?? "no reason given")") }
        publish(.callTransferred(ref, to: to, target: name, ok: ok, error: ok ? nil : detail ?? "failed: no reason given"))
    }
}
