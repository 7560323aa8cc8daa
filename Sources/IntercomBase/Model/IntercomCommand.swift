import Foundation

/// Everything a front end can ask of the intercom: the TUI's keys, `intercom ctl`, the control
/// socket and the daemon's policies all go through these, so there is one command model.
public enum IntercomCommand: Sendable, Equatable {
    /// How long a call back rings before it counts as unanswered (and `ctl callback` waits for it).
    public static let callBackRingSeconds: Double = 30

    /// Answer a ringing call; nil = the call that has rung longest. `by` is what `call_answered` says.
    case answer(CallID?, by: AnswerTrigger = .user)
    /// Refuse a ringing call; nil = the call that has rung longest.
    case decline(CallID?)
    /// End a call; nil = the answered call, else the one ringing longest.
    case hangup(CallID?)
    /// Send DTMF digits in an answered call with the panel's timing.
    case dtmf(CallID?, digits: String)
    /// Mute or unmute our microphone; nil toggles.
    case mute(Bool?)
    /// Switch call audio between `[audio] playback` and `[audio] speaker`; nil toggles.
    case speaker(Bool?)
    /// Open a door: in a call from a panel per its `open` method (HTTP, DTMF or both); outside
    /// a call through the panel's HTTP API. nil panel = the panel of the current call, or the
    /// only panel configured.
    /// `by` says who asked (a key, ctl, a hook…), for the journal and the automatic-opening rules.
    case open(panel: String?, door: Door, by: DoorTrigger = .ctl)
    /// Call a panel (a live look and talk, `intercom call`); nil = the only panel configured.
    case call(panel: String?)
    /// Switch a panel's calls on or off (off = do not disturb); nil panel = the only panel. Kept
    /// across restarts in the state directory until the config's own `calls` changes.
    case setCalls(panel: String?, on: Bool)
    /// Wait for guests until `until` (nil = off); nil panel = the only panel. Kept like `setCalls`.
    case setGuest(panel: String?, until: Date?)
    /// Pass an answered call on (blind transfer): `target` is a `[directory]` name or a SIP URI;
    /// nil call = the answered call.
    case transfer(CallID?, target: String)
    /// Attended transfer: consult `target` with the call on hold, then complete (the caller is
    /// handed to the target) or cancel (back to the caller). nil call = the answered call, or
    /// the one whose consultation is under way.
    case attendedTransfer(CallID?, step: AttendedTransferStep)
    /// Take missed call `entry` (its journal id) out of the desk's queue; `by` says who dealt with it.
    case handled(entry: Int64, by: String)
    /// Call the panel of missed call `entry` back and, once someone answers, mark the entry
    /// handled by `by`; a call back that reaches nobody leaves it in the queue and fails.
    case callBack(entry: Int64, by: String)
    case status
    /// `[site]`: this desk on duty or off (off: it does not take forked rings), and who is on duty
    /// here (nil: the one there is stays).
    case duty(on: Bool, operator: String?)
    /// `[site]`: the site's desks: name, online (heard within 10 s), on duty, operator, current call, last seen.
    case siteDesks
    /// The doors a front end can open, as `status` lists them under `doors` (`ctl doors`).
    case doors
    /// Entries of the daemon's journal as `intercom log --json` prints them (`ctl journal`):
    /// the newest `query.limit`, oldest first.
    case journal(JournalQuery)
    /// Show panels without a call (the kiosk's tiles, `intercom watch`): their snapshots at `fps`,
    /// and their live streams for the screens that ask the picture hub for them; `[]` ends
    /// `subscriber`'s panels. The engine plays the union of every subscriber's panels at the fastest
    /// rate any asked; `whole` (a `watch` screen) plays the main streams and decodes snapshots whole
    /// while any subscriber asks it, else the sub streams. A panel it does not have is refused.
    case watch(Subscriber, panels: [String], fps: Double, whole: Bool = false)
    /// Show operator camera `camera` (`OPERATOR:cam:ID`) in the picture hub under its id, live or
    /// its recording from `at`; nil ends `subscriber`'s camera. Played once however many subscribers
    /// show it, stopped with the last; an unknown or unplayable camera is refused in one line.
    case watchCamera(Subscriber, camera: String?, at: Date? = nil)
    /// `subscriber` draws `panel` (or an operator camera it shows, by the camera's id) in a box of
    /// `want`'s pixels, live or its stills alone; nil: not any more. The engine decodes a panel's
    /// stream at the largest box any subscriber asks (each side on its own) and plays it live while
    /// any asks live; when the last want of a live panel goes, its stills go on. A panel it does not
    /// have, or a box of no pixels, is refused. On the socket this is the `picture` request.
    case picture(Subscriber, panel: String, want: PictureWant?)
    /// End every subscription of `subscriber` (its pictures' wants among them): a screen that quits,
    /// a control connection that closed.
    case unwatch(Subscriber)
    /// Keep the end of a guest's shared access (`intercom share --until`: the operator's server
    /// keeps none) and take the access back when it is due, or forget a kept end. The engine's
    /// operator part keeps them; on the socket this is the `share_expiry` request.
    case shareExpiry(ShareExpiry.Change)
    /// An operator's flat settings (`address/intercom`), changed first when the request has changes:
    /// `ctl settings`, MQTT's switches, the screens. The reply is `intercom settings --json`'s object.
    /// On the socket this is the `settings` request.
    case flatSettings(FlatSettingsRequest)
    /// Apply a re-read config to the running engine (SIGHUP): panel policies, the operators; calls
    /// in progress go on. The reply's `not_applied` lists what waits for a restart. In-process
    /// only: the host executes it on SIGHUP, and the control socket has no request for it.
    case reload(IntercomConfig)
}

/// What a subscriber asks of one panel's picture (`IntercomCommand.picture`): the pixel box it
/// draws the panel in (each screen scales the picture down to its own) and whether it wants the
/// live stream, or the stills alone (a kiosk tile beyond the screen's live budget, a panel paged away).
public struct PictureWant: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public var live: Bool

    public init(width: Int, height: Int, live: Bool) {
        self.width = width
        self.height = height
        self.live = live
    }

    /// The largest box a want may ask, as the socket's `picture` request allows.
    public static let largest = 4096

    public var description: String { "\(width)x\(height) \(live ? "live" : "stills")" }
}

/// Who holds frame subscriptions (`watch`, `watchCamera`, `picture`, `unwatch`): a screen's own-engine
/// link, one connection of the control socket. The engine keeps each subscriber's panels, camera and
/// picture wants and plays their union, so a subscriber that leaves never stops what another still shows.
public struct Subscriber: Hashable, Sendable, CustomStringConvertible {
    public let name: String

    public init(_ name: String) { self.name = name }

    /// On the control socket the connection is the subscriber: a request names none (this stands
    /// in for it) and the daemon puts its connection's own in, so no client can end or change
    /// another's subscriptions.
    public static let sender = Subscriber("")

    public var description: String { name.isEmpty ? "the sender" : name }
}

extension IntercomCommand {
    /// The command with `subscriber` as its subscriber (a subscription's), else unchanged.
    public func subscribed(as subscriber: Subscriber) -> IntercomCommand {
        switch self {
        case .watch(_, let panels, let fps, let whole): .watch(subscriber, panels: panels, fps: fps, whole: whole)
        case .watchCamera(_, let camera, let at): .watchCamera(subscriber, camera: camera, at: at)
        case .picture(_, let panel, let want): .picture(subscriber, panel: panel, want: want)
        case .unwatch: .unwatch(subscriber)
        default: self
        }
    }
}

/// The steps of an attended transfer a front end asks for (`ctl transfer --consult|--complete|--cancel`).
public enum AttendedTransferStep: Sendable, Equatable {
    /// Put the call on hold and call `target` (a `[directory]` name or a SIP URI).
    case consult(target: String)
    /// The target answered: hand the caller over (REFER with Replaces).
    case complete
    /// Hang up the consultation and take the call off hold.
    case cancel
}

/// Who answered a call a person answered: at a face of their own (a key, `ctl`), or with the
/// desktop notification's button. The event's and the journal's `by`.
public enum AnswerTrigger: String, Sendable, Equatable {
    case user
    case notification
}
