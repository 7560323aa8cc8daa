import Foundation
import IntercomBase

/// A call's transfers, blind and attended: the one asked for and not yet reported, the
/// consultation under way while the call is on hold, and, for a consultation's own call, the
/// held call it consults for. Kept in the call (not in a table of the engine's), so it goes with
/// the call, or stays with the consultation when the desk keeps talking to the target.
/// The engine places and ends the calls; this says what each step may do and what it reports.
struct CallTransfer: Sendable, Equatable {
    /// The desk calls `uri` while the caller waits on hold.
    struct Consultation: Sendable, Equatable {
        var uri: String
        var name: String?
        /// The consultation's call, once the phone placed it.
        var call: CallID?
        var answered = false
        /// The REFER went out: the target hanging up the consultation is the transfer going through.
        var completing = false

        var who: String { name ?? uri }
    }

    /// Where a transfer goes: the URI, and the `[directory]` name it came from.
    struct Target: Sendable, Equatable {
        var uri: String
        var name: String?
    }

    /// A transfer asked for and not yet reported.
    private(set) var pending: Target?
    /// An attended transfer under way: the call is on hold while `consult.call` calls the target.
    private(set) var consult: Consultation?
    /// This call is an attended transfer's consultation: the call on hold it consults for.
    var consultationOf: CallID?

    /// Whether a new transfer (blind or attended) may start.
    var isIdle: Bool { consult == nil && pending == nil }

    /// A blind transfer's REFER is about to go.
    mutating func ask(_ target: Target) { pending = target }

    /// The REFER could not be sent: forgotten, unless another transfer took its place meanwhile.
    mutating func askFailed(_ target: Target) {
        if pending?.uri == target.uri { pending = nil }
    }

    /// The phone's word on the transfer to `uri`: what `call_transferred` names, and the
    /// transfer is settled. An attended transfer's target is the consultation's (the phone knows
    /// it by the address liblinphone resolved); a refused one leaves the consultation up, to try
    /// again or cancel.
    mutating func reported(uri: String, ok: Bool) -> (to: String, name: String?) {
        let attended = consult != nil
        let name = pending?.uri == uri || attended ? pending?.name : nil
        let to = attended ? pending?.uri ?? uri : uri
        pending = nil
        if attended && !ok { consult?.completing = false }
        return (to, name)
    }

    /// The caller goes on hold while the desk calls `target`.
    mutating func startConsulting(_ target: Target) {
        consult = Consultation(uri: target.uri, name: target.name)
    }

    /// The phone placed the consultation's call.
    mutating func placed(_ call: CallID) { consult?.call = call }

    /// The consultation's call `call` was answered; true the first time (`transfer_consult` answered).
    mutating func answered(_ call: CallID) -> Bool {
        guard consult?.call == call, consult?.answered == false else { return false }
        consult?.answered = true
        return true
    }

    /// The hand-over (REFER with Replaces) may go: the consultation to complete, or why not.
    func completable() throws(IntercomError) -> (consult: Consultation, call: CallID) {
        guard let consult, let call = consult.call, consult.answered else {
            throw .notNow("\(consult?.who ?? "the target") has not answered yet: wait for it, "
                          + "or go back to the call (Esc, 'intercom ctl transfer --cancel')")
        }
        guard !consult.completing else { throw .notNow("the transfer to \(consult.who) is already on its way") }
        return (consult, call)
    }

    /// The REFER with Replaces is going (true), or the phone refused to send it (false).
    mutating func completing(_ going: Bool) {
        consult?.completing = going
        pending = going ? consult.map { Target(uri: $0.uri, name: $0.name) } : nil
    }

    /// The held call ended (`reason`) during the consultation: the consultation, why the transfer
    /// failed (nil when the hand-over went through), and whether the desk keeps talking to the
    /// target (it answered and no hand-over was on its way), as on any phone.
    mutating func callerLeft(_ reason: CallEndReason, caller: String) -> (consult: Consultation, failure: String?, keepTalking: Bool)? {
        guard let consult = endConsultation() else { return nil }
        let failure: String? = if consult.completing && reason == .transferred { nil } else {
            (reason == .hangup ? "\(caller) was hung up here" : "\(caller) hung up")
                + " during the " + (consult.completing ? "transfer" : "consultation")
        }
        return (consult, failure, consult.answered && !consult.completing)
    }

    /// The consultation is over (cancelled, failed, or the caller left): what it was.
    @discardableResult
    mutating func endConsultation() -> Consultation? {
        defer { consult = nil }
        return consult
    }
}
