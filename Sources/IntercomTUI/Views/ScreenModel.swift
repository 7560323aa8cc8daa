import Foundation
import IntercomBase

/// Everything the TUI draws, derived from the intercom's events (the same ones the daemon
/// prints), so the screen and the daemon can never disagree about what happened.
struct ScreenModel {
    var calls: [CallView] = []
    /// The call the keys act on (Tab walks the calls in the order they came). A new call never
    /// takes the selection from one that is still there: what `a` answers changes only by a key.
    var selected: CallID?
    var recent: [String] = []
    var registration: String?
    var unreachable: Set<String> = []
    /// The site's store does not answer (`site_unreachable` until `site_reachable`): the title says so.
    var siteDown = false
    var muted = false
    var speaker = false
    /// A transient line: a command's error, a door opened, an outcome.
    var message: (text: String, warn: Bool, until: Date)?
    var outcome: (text: String, until: Date)?
    var quitAsked = false
    /// The journal view (`l`) while it is open.
    var journal: JournalBrowser?
    /// How calls ended, for a screen that follows one call (`intercom call`).
    var ended: [CallID: CallEndReason] = [:]
    var showHelp = false
    /// Every door the screen offers: the panels' main doors, then the operators' (`Intercom.doorList`).
    var doors: [DoorListing] = []
    /// The door `o` opens when no call is on the screen (Tab chooses); nil = as before doors
    /// could be chosen: the only panel's.
    var chosenDoor: String?
    /// `t` in a call: the transfer target being typed (a `[directory]` name or a SIP URI), and the
    /// call it is for (the prompt closes when that call ends).
    var transferPrompt: String?
    var transferCall: CallID?
    /// The prompt was opened with `T`: Enter consults the target (attended transfer), not REFERs.
    var transferAttended = false
    /// An attended transfer under way (`transfer_consult`): the call on hold, whom it consults,
    /// and whether they answered (then `T` hands the call over; Esc goes back to it).
    var consultation: (call: CallID, target: String, answered: Bool)?
    /// The kiosk's page, filter and list mode.
    var kiosk = KioskView()
    /// A door sensor's on/off that echoes an opening is not listed under Recent (as in the journal).
    var sensorFold = DoorSensorFold()
    /// The kiosk's digit chose a door (`chosenDoor`) after the last call was selected: `o` opens
    /// that door, and its tile is the one drawn as selected, even while a call rings.
    var doorFocus = false
    /// `o`, `O` or `g` without a call when more than one door is meant: which one, typed by name
    /// or number (Tab completes, Enter opens, Esc cancels).
    var doorPrompt: (door: Door, typed: String)?
    /// A transfer asked for and not yet answered: its line stays until the outcome, or until
    /// `transferPatience` has passed (then it is said to have timed out).
    var pendingTransfer: (call: CallID, target: String, since: Date)?
    /// The last picture the journal holds (the idle screen shows it): its entry and the picture's
    /// path. The entry follows its call's end (`callEnded`), so the box never says "in progress"
    /// of a call that is over while the daemon has not written its end yet.
    var lastVisitor: (entry: JournalEntry, picture: String)?
    /// The desk's missed calls nobody returned yet: counted on every screen (`missedItem`).
    var missed = MissedCalls()
    /// Each panel's do-not-disturb and guest mode as its last `panel_policy` said.
    var policies: [String: (calls: Bool, guestUntil: Date?)] = [:]
    /// Whether this is the kiosk: there `o` without a call opens only a door a digit picked.
    var kioskMode = false
    /// When the door a digit or Tab picked is forgotten (`pickSeconds` after the pick, or after
    /// its panel's last call): a pick never waits long for an `o` that opens it by accident.
    var chosenUntil: Date?

    var selectedCall: CallView? {
        calls.first { $0.id == selected } ?? calls.first { $0.stage == .active } ?? calls.first
    }

    var ringing: [CallView] { calls.filter { $0.stage == .ringing } }

    /// Another face of the same daemon answered the call: it says which (`who` of `call_answered`;
    /// a daemon too old to tell is "another screen"), and this screen can still talk, open and
    /// hang up (sound is the daemon's).
    mutating func answeredElsewhere(_ call: CallID, by who: FaceIdentity? = nil) {
        guard let i = calls.firstIndex(where: { $0.id == call }) else { return }
        let text = who?.answeredText ?? "answered on another screen"
        calls[i].answeredElsewhere = text
        say("\(calls[i].title) \(text)")
    }

    mutating func apply(_ event: IntercomEvent) {
        let time = Self.clock(event.time)
        switch event.kind {
        case .callIncoming(let c):
            calls.append(CallView(id: c.id, panel: c.panel, from: c.from, stage: .ringing, since: event.time))
            // A ring changes what o means: a door question asked before it is moot.
            (journal, doorPrompt) = (nil, nil)
            if selected == nil || !calls.contains(where: { $0.id == selected }) {
                selected = c.id
                doorFocus = false
            }
            remember("\(time) \(c.panel ?? c.from) rang")
        case .callOutgoing(let c, let to):
            calls.append(CallView(id: c.id, panel: c.panel, from: to, stage: .dialing, since: event.time))
            selected = c.id
            doorFocus = false
            remember("\(time) calling \(c.panel ?? to)")
        case .callAnswered(let c, let by):
            // Answering puts the conversation already under way on hold (liblinphone pauses it).
            for i in calls.indices where calls[i].stage == .active && calls[i].id != c.id { calls[i].held = true }
            if let i = calls.firstIndex(where: { $0.id == c.id }) {
                calls[i].stage = .active
                calls[i].since = event.time
                calls[i].answeredBy = by.rawValue
                calls[i].held = false
            }
            selected = c.id
            doorFocus = false
            remember("\(time) \(calls.first { $0.id == c.id }?.title ?? c.panel ?? c.from) answered (\(by.rawValue))")
        case .callEnded(let c, let reason, let duration):
            let call = calls.first { $0.id == c.id }
            let title = call?.title ?? c.panel ?? c.from
            calls.removeAll { $0.id == c.id }
            // The next one is the call that has waited longest.
            if selected == c.id { selected = (ringing.first ?? calls.first)?.id }
            if transferCall == c.id { (transferPrompt, transferCall) = (nil, nil) }
            if pendingTransfer?.call == c.id { pendingTransfer = nil }
            if consultation?.call == c.id { consultation = nil }
            ended[c.id] = reason
            // Another desk took it, or it was refused busy: say so for a moment, with no duration
            // (it never rang out here). A call nobody answered says how long it rang: its talk
            // time is 0:00.
            let rang = call.map { $0.stage == .ringing } ?? false
            let length = rang ? "rang \(Self.duration(event.time.timeIntervalSince(call?.since ?? event.time)))" : Self.duration(duration)
            // At a desk of a site the daemon names the desk that took it: "answered at B (anna)".
            let said = event.takenAt.map { "answered at \($0.text)" } ?? Self.reasonText(reason)
            let text = reason == .answeredElsewhere || reason == .busy ? "\(title): \(said)"
                : "\(title): \(Self.reasonText(reason)) (\(length))"
            // As the journal counts them (`JournalEntry.missed`): rang here, and no desk answered.
            if rang, reason != .answeredElsewhere, reason != .transferred { missed.ended(c.id) }
            if let visitor = lastVisitor { showLastVisitor(visitor.entry, picture: visitor.picture) }
            outcome = (text, Date().addingTimeInterval(3))
            remember("\(time) \(text)")
        case .callTransferred(let c, let to, let target, let ok, let error):
            let title = calls.first { $0.id == c.id }?.title ?? c.panel ?? c.from
            let text = ok ? "\(title) transferred to \(target ?? to)"
                : "transfer of \(title) to \(target ?? to) failed: \(error ?? "refused")"
            if pendingTransfer?.call == c.id { pendingTransfer = nil }
            if ok, consultation?.call == c.id { consultation = nil }
            if ok { say(text) } else { fail(text) }
            remember("\(time) \(text)")
        case .transferConsult(let c, let state, let to, let target, _, let error):
            consult(c, state: state, who: target ?? to, error: error, time: time)
        case .doorOpened(let panel, _, let door, let method, _, let ok, let error):
            let text = Self.doorText(owner: panel, door: door, method: method, ok: ok, error: error)
            if ok { say(text) } else { fail(text) }
            remember("\(time) \(text)")
            guard ok else { break }
            for change in sensorFold.opened(panel: panel, row: 0, at: event.time) where change.state == "on" {
                if let i = recent.firstIndex(of: "\(Self.clock(change.time)) \(panel): door") { recent.remove(at: i) }
            }
        case .panelOpened(let o):
            // Heard from the panel's syslog: a line of the recent list, never a door we opened.
            remember("\(time) \(o.panel): \(o.door) door opened at the panel (\(o.by.rawValue)\(o.flat.map { ", flat \($0)" } ?? ""))")
        case .panelCalling(let panel, let flat, _):
            remember("\(time) \(panel) calls flat \(flat)")
        case .callAnsweredElsewhere(let panel, let flat):
            remember("\(time) \(panel): the handset of flat \(flat) answered")
        case .registered(let account, _):
            registration = "registered as \(account)"
        case .registrationFailed(let account, let reason):
            registration = "registration of \(account) failed: \(reason ?? "no reason")"
        case .panelUnreachable(let panel, _):
            unreachable.insert(panel)
            remember("\(time) \(panel) unreachable")
        case .panelReachable(let panel):
            unreachable.remove(panel)
            remember("\(time) \(panel) reachable again")
        // Said on a change only: a screen (re-)attaching is told the site's state as one of these too.
        case .siteUnreachable:
            if !siteDown { remember("\(time) site unreachable: this desk goes on alone") }
            siteDown = true
        case .siteReachable:
            if siteDown { remember("\(time) site reachable again") }
            siteDown = false
        case .panelEvent(let panel, let kind, let state, _):
            if DoorSensorFold.isDoorSensor(kind) {
                guard sensorFold.sensor(panel: panel, state: state, at: event.time) == nil else { break }
                sensorFold.kept(panel: panel, .init(row: 0, state: state, time: event.time))
            }
            if state == "on" { remember("\(time) \(panel): \(kind)") }
        case .audioChanged(let muted, let speaker, _):
            self.muted = muted
            self.speaker = speaker
        case .error(let text):
            fail(text)
        case .panelPolicy(let panel, let calls, let until):
            policies[panel] = (calls, until)
            let guest = until.map { ", guest mode until \(Self.clock($0))" } ?? ""
            remember("\(time) \(panel): calls \(calls ? "on" : "off (do not disturb)")\(guest)")
            // The engine declines before guest mode could answer: the guest is not let in.
            if !calls, until != nil { say(Self.dndWins(panel), warn: true) }
        case .operatorEvent(let n):
            // The detail is the operator's text: escaped like every outside string on a terminal.
            remember(TerminalSafe.escape("\(time) \(n.operatorName): \(n.kind.replacingOccurrences(of: "_", with: " "))"
                                         + (n.detail.map { " (\($0))" } ?? "")))
        case .operatorMessage(let name, let unread):
            remember("\(time) \(name): \(unread) unread message\(unread == 1 ? "" : "s")")
        case .shareExpired(let expiry):
            remember(TerminalSafe.escape("\(time) \(expiry.operatorName): access of +\(expiry.phone) to flat \(expiry.flatId) ended"))
        case .started, .peepholeFrame:
            break
        }
    }

    /// A step of an attended transfer: the message line says what the desk can do next.
    private mutating func consult(_ c: IntercomEvent.CallRef, state: IntercomEvent.ConsultState, who: String, error: String?,
                                  time: String) {
        let title = calls.first { $0.id == c.id }?.title ?? c.panel ?? c.from
        switch state {
        case .calling:
            consultation = (c.id, who, false)
            hold(c.id, true)
            say("\(title) on hold, calling \(who)… (Esc: back to \(title))")
        case .answered:
            consultation = (c.id, who, true)
            say("\(who) answered: T hands \(title) over, Esc goes back to \(title)")
        case .transferring:
            pendingTransfer = (c.id, who, Date())
        case .cancelled:
            consultation = nil
            hold(c.id, false)
            say("back to \(title); the call to \(who) was hung up")
            remember("\(time) transfer of \(title) to \(who) cancelled")
        case .failed:
            consultation = nil
            hold(c.id, false)
            let text = "transfer of \(title) to \(who) failed: \(error ?? "no reason given")"
            fail(text + (calls.contains { $0.id == c.id } ? "; back to \(title)" : ""))
            remember("\(time) \(text)")
        }
    }

    /// The idle screen's last visitor. A call this screen saw end is shown ended even when the
    /// journal, which the daemon writes a moment after the event, still has it in progress.
    mutating func showLastVisitor(_ entry: JournalEntry, picture: String) {
        var entry = entry
        if entry.outcome == nil, let call = entry.call, let reason = ended[CallID(call)] { entry.outcome = reason.rawValue }
        lastVisitor = (entry, picture)
    }

    /// Tab: the next call in the queue (the order they came in).
    mutating func selectNext() {
        guard !calls.isEmpty else { return }
        let index = doorFocus ? -1 : (calls.firstIndex { $0.id == selectedCall?.id } ?? -1)
        selected = calls[(index + 1) % calls.count].id
        doorFocus = false
    }

    /// How long a failure stays on the screen when no key is pressed.
    static let failureSeconds: TimeInterval = 10

    mutating func say(_ text: String, warn: Bool = false) {
        if warn { return fail(text) }
        message = (text, false, Date().addingTimeInterval(3))
    }

    /// A failure with its reason: shown until the next key (`keyPressed`) or `failureSeconds`.
    mutating func fail(_ text: String) {
        message = (text, true, Date().addingTimeInterval(Self.failureSeconds))
    }

    /// How long a transfer may go unanswered before the screen calls it a timeout: the other
    /// side's NOTIFYs normally come within seconds; SIP gives up on an INVITE after 32 s.
    static let transferPatience: TimeInterval = 35

    /// Each turn of the screen: a transfer with no outcome for too long is said to have failed;
    /// a door picked long enough ago is forgotten (`expirePick`).
    mutating func tick(now: Date) {
        expirePick(now: now)
        guard let pending = pendingTransfer, now.timeIntervalSince(pending.since) > Self.transferPatience else { return }
        pendingTransfer = nil
        let title = calls.first { $0.id == pending.call }?.title ?? "the call"
        // What the desk can do comes first: at 80 columns the reason is what wraps.
        fail("\(title) is still here: its transfer to \(pending.target) timed out "
             + "(no word from the other side in \(Int(Self.transferPatience)) s)")
    }

    private mutating func hold(_ call: CallID, _ held: Bool) {
        if let i = calls.firstIndex(where: { $0.id == call }) { calls[i].held = held }
    }

    /// Do-not-disturb and guest mode both on: the line that says which wins.
    static func dndWins(_ panel: String) -> String {
        "\(panel): do not disturb wins over guest mode: its calls are declined, no guest is let in"
    }

    /// Any key: a failure on the screen has been seen.
    mutating func keyPressed() {
        if message?.warn == true { message = nil }
    }

    private mutating func remember(_ line: String) {
        recent.insert(line, at: 0)
        if recent.count > 50 { recent.removeLast() }
    }

    static func reasonText(_ reason: CallEndReason) -> String {
        switch reason {
        case .hangup: "hung up"
        case .remoteHangup: "the panel hung up"
        case .declined: "declined"
        case .missed: "missed"
        case .answeredElsewhere: "answered at another desk"
        case .transferred: "transferred"
        case .busy: "missed: too many calls at once"
        case .error: "call failed"
        }
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return String(format: "%d:%02d", s / 60, s % 60)
    }

    static func clock(_ date: Date) -> String {
        LocalTime(date).clock
    }
}
