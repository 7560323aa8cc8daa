import Foundation

/// A panel's door-sensor changes that only echo one of our openings are kept on the opening's
/// row (`sensor`: the states in order, e.g. `on off`) instead of rows of their own
/// (`DoorSensorFold` decides which).
extension Journal {
    /// The column the fold adds to `entries` (migrated in by `init`).
    static let sensorColumns = ["sensor"]

    /// Inserts one row and returns its id, the check and the id under one lock.
    func insert(_ sql: String, _ values: [SQLiteDatabase.Value]) throws(JournalError) -> Int64 {
        try locked { db throws(JournalError) in
            _ = try db.run(sql, values)
            return db.lastInsertID
        }
    }

    /// Adds a sensor change to the door opening `row`.
    public func foldSensor(_ state: String, into row: Int64) throws(JournalError) {
        _ = try run("UPDATE entries SET sensor = trim(coalesce(sensor, '') || ' ' || ?) WHERE id = ? AND kind = 'door'",
                    [.text(state), .integer(row)])
    }

    /// Moves sensor changes already kept as rows (`panel_event`) into the opening `row`, in order.
    public func foldSensor(rows: [Int64], into row: Int64) throws(JournalError) {
        guard !rows.isEmpty else { return }
        var states: [String] = []
        for change in rows.sorted() {
            let state = try run("SELECT method FROM entries WHERE id = ? AND kind = 'panel_event'", [.integer(change)])
            guard let text = state.first?.first?.text else { continue }
            states.append(text)
            _ = try run("DELETE FROM entries WHERE id = ?", [.integer(change)])
        }
        // They came before any change folded since: they go first.
        _ = try run("UPDATE entries SET sensor = trim(? || ' ' || coalesce(sensor, '')) WHERE id = ? AND kind = 'door'",
                    [.text(states.joined(separator: " ")), .integer(row)])
    }
}
