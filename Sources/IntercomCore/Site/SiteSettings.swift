import Foundation
import IntercomBase

/// What a desk knows of its place in the site: `[site]` in the config, and `ctl duty` since.
public struct SiteSettings: Sendable, Equatable {
    /// This desk's name (`[site] desk`, default the machine's name).
    public var desk: String
    /// Who is on duty here (`[site] operator`, `ctl duty on --operator NAME`).
    public var operatorName: String?
    /// Off duty, the desk refuses a forked ring with 480 and the site does not count it.
    public var onDuty: Bool
    /// A ring no desk on duty has answered after this long is escalated to `escalateTo` (nil: never).
    public var escalateAfter: Duration?
    public var escalateTo: String?
    /// How often the link beats while it catches up or the store is down (each beat probes it).
    public var heartbeat: Duration
    /// How often it beats while all is well. A desk's session says it is there (`DeskPresence.connected`),
    /// so this beat only finds a store that froze, and moves the desk's last seen.
    public var quietHeartbeat: Duration
    /// A desk not heard for this long is offline, even with its session there (a frozen desk).
    public var offlineAfter: TimeInterval
    /// How long an ended call waits for the claim of the desk that took it (its claim may land
    /// after the proxy's CANCEL reached this desk).
    public var claimWait: Duration
    /// How often the claim is looked for during that wait, and the store is probed during an outage.
    public var claimPoll: Duration

    public init(desk: String, operatorName: String? = nil, onDuty: Bool = true, escalateAfter: Duration? = nil,
                escalateTo: String? = nil, heartbeat: Duration = .seconds(2), quietHeartbeat: Duration = .seconds(10),
                offlineAfter: TimeInterval = 25, claimWait: Duration = .seconds(1), claimPoll: Duration = .milliseconds(100)) {
        (self.desk, self.operatorName, self.onDuty, self.escalateAfter, self.escalateTo) =
            (desk, operatorName, onDuty, escalateAfter, escalateTo)
        (self.heartbeat, self.quietHeartbeat, self.offlineAfter) = (heartbeat, quietHeartbeat, offlineAfter)
        (self.claimWait, self.claimPoll) = (claimWait, claimPoll)
    }
}

/// A desk as `ctl site` lists it: its last heartbeat, and whether it was heard recently enough.
public struct SiteDeskRow: Sendable, Equatable {
    public var presence: DeskPresence
    public var online: Bool

    /// The desks as seen at `now`: online while the store sees its session (when it can tell) and
    /// it was heard within `offlineAfter` (the engine decides, not the store: every desk reads the
    /// same rows and the same rule), by name.
    public static func rows(_ desks: [DeskPresence], now: Date, offlineAfter: TimeInterval) -> [SiteDeskRow] {
        desks.sorted { $0.desk.lowercased() < $1.desk.lowercased() }.map { desk in
            SiteDeskRow(presence: desk, online: desk.connected != false && now.timeIntervalSince(desk.at) < offlineAfter)
        }
    }

    /// `ctl site --json`'s row.
    public var json: JSONValue {
        .object([("desk", .string(presence.desk)), ("online", .bool(online)), ("on_duty", .bool(presence.onDuty)),
                 ("operator", .optional(presence.operatorName)), ("current_call", .optional(presence.currentCall?.callID)),
                 ("last_seen", .string(RFC3339.string(presence.at)))])
    }

    /// No online desk is on duty: a ring reaches nobody who will answer it.
    public static func nobodyOnDuty(_ rows: [SiteDeskRow]) -> Bool {
        !rows.contains { $0.online && $0.presence.onDuty }
    }
}
