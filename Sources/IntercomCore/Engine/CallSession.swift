import Foundation
import IntercomBase
import IntercomPhone

/// One call: what the intercom knows about it while it exists, and every task it started
/// (peephole, live picture, guest mode's confirmation wait and hang-up, the delayed answer, the
/// waits of openings and hooks on its state). The engine keeps it in `calls` while it lives;
/// `end()` cancels its tasks as a unit when it ends, and `Intercom.stop()` awaits them.
///
/// Its state moves only through its transitions below (ring → answer → transfer → end): the
/// engine asks the call to move, it does not write the call's fields one by one.
struct CallSession: Sendable {
    /// `dialing`: a call we placed that the panel has not accepted yet.
    typealias Stage = CallStage

    let info: CallInfo
    private(set) var panel: PanelConfig?
    /// A call from an operator's panel through the `[sip] account`: the door it stands for.
    let operatorDoor: DoorListing?
    private(set) var stage: Stage
    let since: Date
    private(set) var answeredBy: IntercomEvent.AnsweredBy?
    /// The face that answered, and the one that hung up or declined (`who` of `call_answered`, `call_ended`).
    private(set) var answeredWho: FaceIdentity?
    private(set) var endedWho: FaceIdentity?
    /// The caller's ACK and media arrived (`PhoneEvent.confirmed`): automatic openings may go on.
    private(set) var confirmed = false
    /// Earlier calls of the same panel, answered when this one rang: they end once this one is
    /// confirmed (a forged INVITE never is, and leaves them alone).
    private(set) var replacesOnceConfirmed: [CallID]
    /// An outgoing call's `call_outgoing` was published (incoming calls are announced at once).
    private(set) var announced: Bool
    /// The call's transfers, blind and attended (`CallTransfer`).
    var transfer = CallTransfer()
    /// A desk of a site that won a ring's escalation answers it and, once it is established,
    /// transfers it (blind) here: `[site] escalate_to`.
    var escalatingTo: String?
    /// The call's tasks: shared by every copy of the session, ended with the call.
    let tasks: TaskOwner
    /// Why it ended, once it has (kept for `dial`, whose call may end before it is announced).
    private(set) var endReason: CallEndReason?
    /// What the phone said of the end (a SIP reason such as "Busy Here"), for a refused call back.
    private(set) var endDetail: String?

    /// `announced`: false for an outgoing call until `dial` names it (`call_outgoing`).
    init(info: CallInfo, panel: PanelConfig?, operatorDoor: DoorListing? = nil, stage: Stage, since: Date,
         replacing: [CallID] = [], announced: Bool = true, census: TaskCensus?) {
        self.info = info
        self.panel = panel
        self.operatorDoor = operatorDoor
        self.stage = stage
        self.since = since
        self.replacesOnceConfirmed = replacing
        self.announced = announced
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

    // MARK: - Transitions

    /// `dial` got the call's id back: it is the panel's, and announced from now on.
    mutating func announce(panel: PanelConfig) {
        self.panel = panel
        announced = true
    }

    /// Someone (`by`, as `who`) answers: a delayed auto-answer has nothing left to do.
    mutating func answering(by: IntercomEvent.AnsweredBy, who: FaceIdentity?) {
        tasks.cancel(Self.pendingAnswer)
        stage = .answering
        answeredBy = by
        answeredWho = who
    }

    /// The phone refused the answer: the call rings on (unless something else moved it meanwhile).
    mutating func answerFailed() {
        if stage == .answering { stage = .ringing }
    }

    /// The media flows: answered here, or accepted by the panel we called.
    mutating func establish() { stage = .active }

    /// The caller's ACK and media arrived.
    mutating func confirm() { confirmed = true }

    /// The earlier calls this one still replaces once confirmed (none once it was, or they ended).
    mutating func replaces(_ earlier: [CallID]) { replacesOnceConfirmed = earlier }

    /// A face asked to hang up or decline (`who` of `call_ended`); nil again when the phone refused.
    mutating func endedBy(_ who: FaceIdentity?) { endedWho = who }

    /// The call ended: every task it started is cancelled (the engine's `stop` awaits them).
    mutating func end(_ reason: CallEndReason, detail: String? = nil) {
        endReason = reason
        endDetail = detail
        tasks.close()
    }

    /// Seen by whoever placed it (`dial`, `consult`): nothing waits for it among the ended calls.
    mutating func markSeen() { announced = true }

    /// An attended transfer's consultation: announced by no `call_*` event while it is one.
    mutating func consults(for held: CallID) {
        announced = false
        transfer.consultationOf = held
    }

    /// The caller hung up while the desk talked to the consultation's target: it is an
    /// ordinary call of the desk from now on.
    mutating func becomeOrdinary() {
        transfer.consultationOf = nil
        announced = true
    }

    /// What `call_answered` says once the media flows, and who answered: nothing for an outgoing
    /// call not announced yet (a consultation, or one `dial` has not named).
    var answeredEvent: (kind: IntercomEvent.Kind, who: FaceIdentity?)? {
        switch info.direction {
        case .incoming: (.callAnswered(ref, by: answeredBy ?? .user), answeredWho)
        case .outgoing: announced ? (.callAnswered(ref, by: .remote), nil) : nil
        }
    }

    /// What events call the caller: the panel's name, or the operator door's id (`home:1:0`).
    var name: String? { panel?.name ?? operatorDoor?.id }

    /// Who is at the other end, as a line names it: the caller's URI, or the one we called.
    var caller: String { info.direction == .incoming ? info.from : info.to }

    var ref: IntercomEvent.CallRef { .init(id: info.id, panel: name, from: info.from) }

    /// The call as `status` lists it.
    var status: CallStatus { CallStatus(call: info.id, panel: name, from: info.from, state: stage, since: since) }
}
