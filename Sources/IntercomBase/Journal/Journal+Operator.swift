import Foundation

/// The journal's copy of the operators' event logs: the daemon stores each entry once (keyed by
/// the operator and the entry's uuid), so `intercom log` and the terminal client show them offline.
extension Journal {
    /// How often the daemon copies each logged-in operator's event log into the journal.
    public static let operatorSyncInterval: TimeInterval = 300
    /// A copy synced this recently stands for the operator's log (`intercom log` asks no further);
    /// three rounds, so one failed round does not send every `intercom log` to the network.
    public static let operatorCopyFreshness: TimeInterval = 3 * operatorSyncInterval

    /// The columns operator entries add to `entries` (migrated in by `init`).
    /// Added for the concierge desk: `incoming`/`outgoing` (NULL in older rows: incoming), and
    /// where a transferred call went.
    static let deskColumns = ["direction", "transferred_to"]
    static let operatorColumns = ["operator", "event", "uuid", "flat", "address", "picture_url", "event_detail"]
    /// Added with the entry's own camera (issue 42): NULL in rows copied before.
    static let operatorCameraColumns = ["camera_id", "entrance_id"]

    /// Stores an operator's log entry (`kind` `.operatorEvent`, with `operatorName` and `uuid`)
    /// unless that operator's entry with this uuid is already there. Returns the new row's id, or
    /// nil when it was known.
    @discardableResult
    public func recordOperatorEvent(_ e: JournalEntry) throws(JournalError) -> Int64? {
        guard let name = e.operatorName, let uuid = e.uuid else {
            throw .io("an operator event needs its operator and uuid")
        }
        return try locked { db throws(JournalError) -> Int64? in
            let known = try db.run("SELECT 1 FROM entries WHERE operator = ? AND uuid = ?", [.text(name), .text(uuid)])
            guard known.isEmpty else { return nil }
            try db.run("""
                INSERT INTO entries(kind, time, caller, detail, outcome, operator, event, uuid, flat, address, picture_url, event_detail,
                                    camera_id, entrance_id)
                VALUES ('operator_event', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [.real(e.time.timeIntervalSince1970), .optional(e.caller), .optional(e.detail), .optional(e.outcome),
                 .text(name), .optional(e.event), .text(uuid), .optional(e.flat), .optional(e.address),
                 .optional(e.pictureURL), .optional(e.eventDetail?.encoded), .optional(e.cameraId), .optional(e.entranceId)])
            return db.lastInsertID
        }
    }

    /// Keeps the preview picture of an operator entry beside the calls' pictures (pruned with them).
    @discardableResult
    public func saveOperatorPreview(_ jpeg: Data, row: Int64, at time: Date) throws(JournalError) -> String {
        let path = picturesDirectory + "/" + "\(LocalTime(time).fileStamp)-\(row)-operator.jpg"
        try DurableFile.write(jpeg, to: path)
        _ = try run("UPDATE entries SET first_picture = ? WHERE id = ?", [.text(path), .integer(row)])
        return path
    }

    /// Notes that the operator's log was copied in full (for its recent days) at `time`.
    public func operatorSynced(_ name: String, at time: Date = Date()) throws(JournalError) {
        _ = try run("INSERT INTO operator_sync(operator, synced) VALUES (?, ?) ON CONFLICT(operator) DO UPDATE SET synced = excluded.synced",
                    [.text(name), .real(time.timeIntervalSince1970)])
    }

    /// When each operator's log was last copied.
    public func operatorSyncTimes() throws(JournalError) -> [String: Date] {
        var times: [String: Date] = [:]
        for row in try run("SELECT operator, synced FROM operator_sync") {
            if let name = row[0].text, let time = row[1].double { times[name] = Date(timeIntervalSince1970: time) }
        }
        return times
    }
}
