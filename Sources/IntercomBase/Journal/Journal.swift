import Foundation
import Synchronization

/// The event journal: SQLite in WAL mode, one row per call, door opening and panel alarm, with
/// the call's pictures as JPEG files beside it. Every write is its own transaction, committed at
/// once, so a daemon killed with -9 loses nothing written before.
public final class Journal: Sendable {
    public let directory: String
    public var databasePath: String { directory + "/" + JournalLocation.databaseName }
    public var picturesDirectory: String { directory + "/" + JournalLocation.picturesName }
    private let database: Mutex<SQLiteDatabaseBox>

    /// Opens (creating when `create`) the journal in `directory`.
    public init(directory: String, create: Bool = true) throws(JournalError) {
        self.directory = directory
        let dbPath = directory + "/" + JournalLocation.databaseName
        if create {
            do {
                try FileManager.default.createDirectory(atPath: directory + "/" + JournalLocation.picturesName,
                                                        withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw .io("cannot create \(directory): \(error.localizedDescription)")
            }
        } else if !FileManager.default.fileExists(atPath: dbPath) {
            throw .noJournal(dbPath)
        }
        let db = try SQLiteDatabase(path: dbPath, create: create)
        if create {
            // Pictures of whoever rang are personal data: the owner only.
            chmod(directory, 0o700)
            chmod(dbPath, 0o600)
        }
        // WAL: readers never block the daemon; NORMAL sync still survives a killed process.
        try db.run("PRAGMA journal_mode=WAL")
        try db.run("PRAGMA synchronous=NORMAL")
        // The journal is appended to, a row at a time, and read by `intercom log` in its own
        // process: SQLite's default 2 MB page cache would only grow the daemon by each call's
        // rows until it is full (it showed in the 1000-call soak). 256 KB holds every hot page.
        try db.run("PRAGMA cache_size=-256")
        try db.run("""
            CREATE TABLE IF NOT EXISTS entries (
              id INTEGER PRIMARY KEY AUTOINCREMENT,
              kind TEXT NOT NULL,
              time REAL NOT NULL,
              panel TEXT, call TEXT, caller TEXT,
              ended REAL, outcome TEXT, duration_s REAL, answered_by TEXT,
              detail TEXT, method TEXT, ok INTEGER, error TEXT,
              first_picture TEXT, answer_picture TEXT)
            """)
        try db.run("CREATE INDEX IF NOT EXISTS entries_time ON entries(time)")
        // Older journals gain the columns added since: what triggered a door opening, who acted
        // (`who`: the face that answered a call or opened a door), and the operators' event-log
        // copies (`Journal+Operator`).
        let columns = try db.run("SELECT name FROM pragma_table_info('entries')").compactMap { $0.first?.text }
        for column in ["opened_by", "who"] + Self.operatorColumns + Self.deskColumns + Self.clipColumns + Self.sensorColumns
                + Self.handledColumns + Self.operatorCameraColumns where !columns.contains(column) {
            try db.run("ALTER TABLE entries ADD COLUMN \(column) TEXT")
        }
        // An operator's log entry is stored once however often it is fetched again.
        try db.run("CREATE UNIQUE INDEX IF NOT EXISTS entries_operator_uuid ON entries(operator, uuid) WHERE uuid IS NOT NULL")
        try db.run("CREATE TABLE IF NOT EXISTS operator_sync (operator TEXT PRIMARY KEY, synced REAL NOT NULL)")
        database = Mutex(SQLiteDatabaseBox(db))
    }

    func run(_ sql: String, _ values: [SQLiteDatabase.Value] = []) throws(JournalError) -> [[SQLiteDatabase.Value]] {
        let result = database.withLock { box -> Result<[[SQLiteDatabase.Value]], JournalError> in
            do throws(JournalError) { return .success(try box.db.run(sql, values)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Runs `body` with the database held, so a check and a write happen as one.
    func locked<T>(_ body: (SQLiteDatabase) throws(JournalError) -> T) throws(JournalError) -> T {
        let result = database.withLock { box -> Result<T, JournalError> in
            do throws(JournalError) { return .success(try body(box.db)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    // MARK: - Writing

    /// A ringing call (or, `outgoing`, one we placed: `caller` is then whom we called); returns its row id.
    public func callStarted(panel: String?, call: CallID, caller: String, outgoing: Bool = false,
                            at time: Date) throws(JournalError) -> Int64 {
        let result = database.withLock { box -> Result<Int64, JournalError> in
            do throws(JournalError) {
                try box.db.run("INSERT INTO entries(kind, time, panel, call, caller, direction) VALUES ('call', ?, ?, ?, ?, ?)",
                               [.real(time.timeIntervalSince1970), .optional(panel), .text(call.rawValue), .text(caller),
                                .text(outgoing ? "outgoing" : "incoming")])
                return .success(box.db.lastInsertID)
            } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Calls left without an outcome by a daemon that died (kill -9, power loss) get
    /// `interrupted`, so they stop showing as in progress. The daemon calls this at start.
    @discardableResult
    public func closeInterruptedCalls(at time: Date = Date()) throws(JournalError) -> Int {
        let open = try run("SELECT COUNT(*) FROM entries WHERE kind = 'call' AND outcome IS NULL").first?.first?.int ?? 0
        if open > 0 {
            _ = try run("UPDATE entries SET outcome = 'interrupted' WHERE kind = 'call' AND outcome IS NULL")
        }
        return Int(open)
    }

    /// Temporary pictures left by a daemon killed mid-write are never renamed nor pruned (no row
    /// names them): the writer removes them at start, as it closes interrupted calls.
    @discardableResult
    public func removeOrphanedPictures() -> Int {
        DurableFile.removeTemporaries(in: picturesDirectory)
    }

    /// `who`: the face that answered (`FaceIdentity`), kept as its JSON.
    public func callAnswered(_ row: Int64, by: String, who: FaceIdentity? = nil) throws(JournalError) {
        _ = try run("UPDATE entries SET answered_by = ?, who = ? WHERE id = ?",
                    [.text(by), .optional(who?.json.encoded), .integer(row)])
    }

    public func callEnded(_ row: Int64, outcome: String, duration: Double, at time: Date) throws(JournalError) {
        _ = try run("UPDATE entries SET outcome = ?, duration_s = ?, ended = ? WHERE id = ?",
                    [.text(outcome), .real(duration), .real(time.timeIntervalSince1970), .integer(row)])
    }

    /// Where an answered call was passed on to (a transfer the other side carried out).
    public func callTransferred(_ row: Int64, to target: String) throws(JournalError) {
        _ = try run("UPDATE entries SET transferred_to = ? WHERE id = ?", [.text(target), .integer(row)])
    }

    /// A transfer of call `call` that ended: to `target` (`NAME <URI>` or the URI), `mode` blind
    /// or attended, `error` why it failed or was cancelled; returns its row id.
    @discardableResult
    public func transferTried(panel: String?, call: CallID, target: String, mode: String, ok: Bool, error: String?,
                              at time: Date) throws(JournalError) -> Int64 {
        try insert("INSERT INTO entries(kind, time, panel, call, detail, method, ok, error) VALUES ('transfer', ?, ?, ?, ?, ?, ?, ?)",
                    [.real(time.timeIntervalSince1970), .optional(panel), .text(call.rawValue), .text(target), .text(mode),
                     .integer(ok ? 1 : 0), .optional(error)])
    }

    public enum PictureSlot: String, Sendable { case first = "first_picture", answer = "answer_picture" }

    /// Saves `jpeg` durably (temp file, fsync, rename, fsync of the folder: `DurableFile`) and
    /// records its path; returns the path.
    @discardableResult
    public func savePicture(_ jpeg: Data, row: Int64, slot: PictureSlot, at time: Date) throws(JournalError) -> String {
        let name = "\(LocalTime(time).fileStamp)-\(row)-\(slot == .first ? "ring" : "answer").jpg"
        let path = picturesDirectory + "/" + name
        try DurableFile.write(jpeg, to: path)
        _ = try run("UPDATE entries SET \(slot.rawValue) = ? WHERE id = ?", [.text(path), .integer(row)])
        return path
    }

    /// `by` is what triggered the opening (`DoorTrigger`: key, ctl, guest_mode, hook…), `who` the
    /// face that asked (`FaceIdentity`, kept as its JSON); returns its row id.
    @discardableResult
    public func doorOpened(panel: String, call: CallID?, door: String, method: String, by: String, who: FaceIdentity? = nil,
                           ok: Bool, error: String?, at time: Date) throws(JournalError) -> Int64 {
        try insert("INSERT INTO entries(kind, time, panel, call, detail, method, opened_by, who, ok, error) VALUES ('door', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [.real(time.timeIntervalSince1970), .text(panel), .optional(call?.rawValue), .text(door), .text(method),
                     .text(by), .optional(who?.json.encoded), .integer(ok ? 1 : 0), .optional(error)])
    }

    /// A door the panel opened by itself (its syslog): `method` `panel`, the flat in `flat`, the key's
    /// id in `event_detail`.
    @discardableResult
    public func panelOpened(_ o: PanelOpening, at time: Date) throws(JournalError) -> Int64 {
        try insert("INSERT INTO entries(kind, time, panel, detail, method, opened_by, ok, flat, event_detail) VALUES ('door', ?, ?, ?, ?, ?, 1, ?, ?)",
                    [.real(time.timeIntervalSince1970), .text(o.panel), .text(o.door), .text(PanelOpening.method), .text(o.by.rawValue),
                     .optional(o.flat), .optional(o.key.map { JSONValue.string($0).encoded })])
    }

    @discardableResult
    public func panelEvent(panel: String, kind: String, state: String, at time: Date) throws(JournalError) -> Int64 {
        try insert("INSERT INTO entries(kind, time, panel, detail, method) VALUES ('panel_event', ?, ?, ?, ?)",
                    [.real(time.timeIntervalSince1970), .text(panel), .text(kind), .text(state)])
    }

    // MARK: - Reading

    private static let columns = "id, kind, time, panel, call, caller, ended, outcome, duration_s, answered_by, detail, method, ok, error, first_picture, answer_picture, opened_by, " + (operatorColumns + deskColumns + clipColumns + sensorColumns + handledColumns + ["who"] + operatorCameraColumns).joined(separator: ", ")

    public func entries(_ query: JournalQuery = JournalQuery()) throws(JournalError) -> [JournalEntry] {
        var conditions: [String] = []
        var values: [SQLiteDatabase.Value] = []
        if let since = query.since {
            conditions.append("time >= ?")
            values.append(.real(since.timeIntervalSince1970))
        }
        if let entry = query.entry {
            conditions.append("id = ?")
            values.append(.integer(entry))
        }
        if let panel = query.panel {
            conditions.append("panel = ? COLLATE NOCASE")
            values.append(.text(panel))
        }
        if query.missedOnly || query.unhandledOnly {
            conditions.append("(\(Self.missedCall) OR (kind = 'operator_event' AND event = 'call_missed'))")
        }
        if query.unhandledOnly { conditions.append("handled_by IS NULL") }
        if let name = query.operatorName {
            conditions.append("operator = ? COLLATE NOCASE")
            values.append(.text(name))
        }
        if !query.operatorEvents { conditions.append("kind != 'operator_event'") }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        var sql = "SELECT \(Self.columns) FROM entries\(whereClause) ORDER BY time DESC, id DESC"
        if let limit = query.limit {
            sql += " LIMIT ?"
            values.append(.integer(Int64(limit)))
        }
        return try run(sql, values).map(Self.entry).reversed()
    }

    private static func entry(_ row: [SQLiteDatabase.Value]) -> JournalEntry {
        JournalEntry(id: row[0].int ?? 0, kind: JournalEntry.Kind(rawValue: row[1].text ?? "") ?? .call,
                     time: Date(timeIntervalSince1970: row[2].double ?? 0), panel: row[3].text, call: row[4].text,
                     caller: row[5].text, ended: row[6].double.map(Date.init(timeIntervalSince1970:)),
                     outcome: row[7].text, durationSeconds: row[8].double, answeredBy: row[9].text,
                     detail: row[10].text, method: row[11].text, ok: row[12].int.map { $0 != 0 }, error: row[13].text,
                     firstPicture: row[14].text, answerPicture: row[15].text, openedBy: row[16].text,
                     operatorName: row[17].text, event: row[18].text, uuid: row[19].text, flat: row[20].text,
                     address: row[21].text, pictureURL: row[22].text,
                     eventDetail: row[23].text.flatMap(JSONValue.parse), direction: row[24].text,
                     transferredTo: row[25].text, clip: row[26].text, ringClip: row[27].text,
                     sensor: row[28].text.map { $0.split(separator: " ").map(String.init) } ?? [],
                     handledAt: row[29].double.map(Date.init(timeIntervalSince1970:)) ?? row[29].text.flatMap(Double.init)
                        .map(Date.init(timeIntervalSince1970:)),
                     handledBy: row[30].text, callBackFailed: row[31].text,
                     who: row[32].text.flatMap(JSONValue.parse).flatMap(FaceIdentity.init(json:)),
                     cameraId: row[33].text, entranceId: row[34].text)
    }

    // MARK: - Retention

    /// Removes entries (and their pictures) older than `keepDays`, then the oldest ones until the
    /// database and pictures fit in `maxBytes`. Returns how many entries went.
    @discardableResult
    public func prune(keepDays: Int, maxBytes: Int64, now: Date = Date()) throws(JournalError) -> Int {
        let cutoff = now.addingTimeInterval(-Double(keepDays) * 86400).timeIntervalSince1970
        var removed = try removeEntries(where: "time < ?", [.real(cutoff)])
        let size = try totalBytes()
        guard size > maxBytes else { return removed }
        // Walk from the oldest, adding up what each entry frees, and cut exactly there.
        var freed: Int64 = 0
        var lastID: Int64?
        var info = stat()
        for row in try run("SELECT id, \(Self.fileColumns) FROM entries ORDER BY time ASC, id ASC") {
            guard size - freed > maxBytes else { break }
            freed += 256  // a row's share of the database, roughly
            for picture in row.dropFirst().compactMap(\.text) where stat(picture, &info) == 0 {
                freed += Int64(info.st_size)
            }
            lastID = row[0].int
        }
        if let lastID {
            removed += try removeEntries(
                where: "id IN (SELECT id FROM entries ORDER BY time ASC, id ASC LIMIT (SELECT COUNT(*) FROM entries WHERE time < (SELECT time FROM entries WHERE id = ?) OR (time = (SELECT time FROM entries WHERE id = ?) AND id <= ?)))",
                [.integer(lastID), .integer(lastID), .integer(lastID)])
        }
        return removed
    }

    private func removeEntries(where condition: String, _ values: [SQLiteDatabase.Value]) throws(JournalError) -> Int {
        let doomed = try run("SELECT id, \(Self.fileColumns) FROM entries WHERE \(condition)", values)
        guard !doomed.isEmpty else { return 0 }
        for row in doomed {
            for file in row.dropFirst().compactMap(\.text) { unlink(file) }
        }
        _ = try run("DELETE FROM entries WHERE \(condition)", values)
        return doomed.count
    }

    /// The pictures, the clips and the live rows' share of the database: the file itself only
    /// shrinks on VACUUM, so it counts by page use.
    public func totalBytes() throws(JournalError) -> Int64 {
        var total: Int64 = 0
        let anyFile = Self.fileColumns.split(separator: ",").map { "\($0) IS NOT NULL" }.joined(separator: " OR ")
        let rows = try run("SELECT \(Self.fileColumns) FROM entries WHERE \(anyFile)")
        var info = stat()
        for row in rows {
            for picture in row.compactMap(\.text) where stat(picture, &info) == 0 {
                total += Int64(info.st_size)
            }
        }
        let pages = try run("SELECT (SELECT page_count FROM pragma_page_count) - (SELECT freelist_count FROM pragma_freelist_count), (SELECT page_size FROM pragma_page_size)")
        if let used = pages.first?[0].int, let size = pages.first?[1].int { total += used * size }
        return total
    }
}

/// SQLiteDatabase is used only under the journal's mutex.
struct SQLiteDatabaseBox: @unchecked Sendable {
    let db: SQLiteDatabase
    init(_ db: SQLiteDatabase) { self.db = db }
}
