import Foundation
import IntercomBase
import IntercomCore
import IntercomPostgres

/// Rows read back into the engine's values, and a NOTIFY's `KIND:ID` read into the change it names
/// (the payload carries no row: a NOTIFY is limited in size and must not be trusted for content).
enum SiteFeedRead {
    static let desksQuery = "SELECT name, on_duty, operator, current_call, extract(epoch from last_seen)::float8 AS at, "
        + "\(SiteSQL.deskConnected) AS connected FROM site_desks d"
    static let switchColumns = "id, panel, kind, value, desk, operator, extract(epoch from at)::float8 AS at"

    static func change(_ payload: String, on connection: PostgresConnection) async throws -> SiteChange? {
        guard let colon = payload.firstIndex(of: ":") else { return nil }
        let id = String(payload[payload.index(after: colon)...])
        switch payload[..<colon] {
        case "desk":
            return desks(try await connection.query(desksQuery + " WHERE name = $1", [id])).first.map(SiteChange.desk)
        case "switch":
            let rows = try await connection.query("SELECT \(switchColumns) FROM site_switches WHERE id = $1::bigint", [id])
            return switches(rows).first.map(SiteChange.switchChanged)
        case "call":
            return try await SiteCallRead.calls(on: connection, where: "c.call_id = $1", [id]).first.map(SiteChange.call)
        case "handled":
            let rows = try await connection.query("SELECT handled_by, extract(epoch from handled_at)::float8 AS at "
                + "FROM site_journal WHERE id = $1::uuid", [id])
            guard let uuid = UUID(uuidString: id), let by = rows.value("handled_by"), let at = SiteSQL.date(rows.value("at")) else {
                return nil
            }
            return .journalHandled(id: uuid, by: by, at: at)
        default:
            return nil
        }
    }

    static func desks(_ rows: PostgresRows) -> [DeskPresence] {
        rows.rows.indices.compactMap { index in
            guard let name = rows.value("name", at: index), let at = SiteSQL.date(rows.value("at", at: index)) else { return nil }
            return DeskPresence(desk: name, onDuty: rows.value("on_duty", at: index) == "t",
                                operatorName: rows.value("operator", at: index),
                                currentCall: rows.value("current_call", at: index).map(SiteCallKey.init), at: at,
                                connected: rows.value("connected", at: index).map { $0 == "t" })
        }
    }

    static func switches(_ rows: PostgresRows) -> [SiteSwitchChange] {
        rows.rows.indices.compactMap { index in
            guard let panel = rows.value("panel", at: index),
                  let kind = rows.value("kind", at: index).flatMap(SiteSwitchKind.init(rawValue:)),
                  let value = rows.value("value", at: index), let desk = rows.value("desk", at: index),
                  let at = SiteSQL.date(rows.value("at", at: index)) else { return nil }
            return SiteSwitchChange(panel: panel, kind: kind, value: value, desk: desk,
                                    operatorName: rows.value("operator", at: index), at: at)
        }
    }
}
