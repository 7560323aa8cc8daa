import Foundation
import IntercomBase
import IntercomPhone

/// What the intercom knows about one call while it exists.
struct CallSession: Sendable {
    /// `dialing`: a call we placed that the panel has not accepted yet.
    enum Stage: String, Sendable { case ringing, answering, active, dialing }

    var info: CallInfo
    var panel: PanelConfig?
    /// A call from an operator's panel through the `[sip] account`: the door it stands for.
    var operatorDoor: DoorListing?
    var stage: Stage
    var since: Date
    var answeredBy: IntercomEvent.AnsweredBy?
    /// The caller's ACK and media arrived (`PhoneEvent.confirmed`): automatic openings may go on.
    var confirmed = false
    /// An outgoing call's `call_outgoing` was published (incoming calls are announced at once).
    var announced = true
    /// A transfer asked for and not yet reported: the URI, and the `[directory]` name it came from.
    var transfer: (uri: String, name: String?)?
    /// An attended transfer under way: the call is on hold while `Consultation.call` calls the target.
    var consult: Consultation?

    /// What events call the caller: the panel's name, or the operator door's id (`home:1:0`).
    var name: String? { panel?.name ?? operatorDoor?.id }

    var ref: IntercomEvent.CallRef { .init(id: info.id, panel: name, from: info.from) }

    var json: JSONValue {
        .object([("call", .string(info.id.rawValue)), ("panel", .optional(name)), ("from", .string(info.from)),
                 ("state", .string(stage.rawValue)), ("since", .string(IntercomEvent.rfc3339(since)))])
    }
}
