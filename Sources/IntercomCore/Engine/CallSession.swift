import Foundation
import IntercomBase
import IntercomPhone
import IntercomModel

/// One call: what the intercom knows about it while it exists, and every task it started
/// (peephole, live picture, guest mode's confirmation wait and hang-up, the delayed answer, the
/// waits of openings and hooks on its state). The engine keeps it in `calls` while it lives;
/// `end()` cancels its tasks as a unit when it ends, and `Intercom.stop()` awaits them.
struct CallSession: Sendable {
    /// `dialing`: a call we placed that the panel has not accepted yet.
    typealias Stage = CallStage

    var info: CallInfo
    var panel: PanelConfig?
    /// A call from an operator's panel through the `[sip] account`: the door it stands for.
    var operatorDoor: DoorListing?
    var stage: Stage
    var since: Date
    var answeredBy: IntercomEvent.AnsweredBy?
    /// The face that answered, and the one that hung up or declined (`who` of `call_answered`, `call_ended`).
    var answeredWho: FaceIdentity?
    var endedWho: FaceIdentity?
    /// The caller's ACK and media arrived (`PhoneEvent.confirmed`): automatic openings may go on.
    var confirmed = false
    /// Earlier calls of the same panel, answered when this one rang: they end once this one is
    /// confirmed (a forged INVITE never is, and leaves them alone).
    var replacesOnceConfirmed: [CallID] = []
    /// An outgoing call's `call_outgoing` was published (incoming calls are announced at once).
    var announced = true
    /// A transfer asked for and not yet reported: the URI, and the `[directory]` name it came from.
    var transfer: (uri: String, name: String?)?
    /// The call's tasks: shared by every copy of the session, ended with the call.
    let tasks: TaskOwner
    /// Why it ended, once it has (kept for `dial`, whose call may end before it is announced).
    var endReason: CallEndReason?
    /// What the phone said of the end (a SIP reason such as "Busy Here"), for a refused call back.
    var endDetail: String?

    init(info: CallInfo, panel: PanelConfig?, stage: Stage, since: Date, census: TaskCensus?) {
        self.info = info
        self.panel = panel
        self.stage = stage
        self.since = since
        tasks = TaskOwner(Self.taskLabel(info.id), census: census)
    }

    /// The slots of the call's tasks that something other than its end cancels or replaces.
    static let pendingAnswer = "auto-answer", peephole = "peephole", livePicture = "live picture"
    static let guestConfirmation = "guest confirmation", guestHangUp = "guest hang-up"
    static let replacementConfirmation = "replacement confirmation"

    /// What the engine's `TaskCensus` counts a call's tasks under.
    static func taskLabel(_ id: CallID) -> String { "call \(id)" }

    /// Tasks of the call still running (tests: none once it has ended and they have stopped).
    var liveTaskCount: Int { tasks.running }

    /// Starts one of the call's tasks (in `slot`, replacing the slot's task); nothing once it ended.
    @discardableResult
    func start(_ slot: String? = nil, _ body: @escaping @Sendable () async -> Void) -> Task<Void, Never>? {
        tasks.start(slot, body)
    }

    /// The call ended: every task it started is cancelled (the engine's `stop` awaits them).
    mutating func end(_ reason: CallEndReason) {
        endReason = reason
        tasks.close()
    }
    /// An attended transfer under way: the call is on hold while `Consultation.call` calls the target.
    var consult: Consultation?
    /// This call is an attended transfer's consultation: the call on hold it consults for. Kept
    /// here, not in a table of the engine's, so it goes with the call (or when the desk keeps
    /// talking to the target and it becomes an ordinary call).
    var consultationOf: CallID?

    /// What events call the caller: the panel's name, or the operator door's id (`home:1:0`).
    var name: String? { panel?.name ?? operatorDoor?.id }

    /// Who is at the other end, as a line names it: the caller's URI, or the one we called.
    var caller: String { info.direction == .incoming ? info.from : info.to }

    var ref: IntercomEvent.CallRef { .init(id: info.id, panel: name, from: info.from) }

    /// The call as `status` lists it.
    var status: CallStatus { CallStatus(call: info.id, panel: name, from: info.from, state: stage, since: since) }
}
