import Foundation
import IntercomBase
import IntercomCore
import IntercomPostgres

/// Forked calls: one row per SIP Call-ID (the same at every desk), a leg per desk it rang at; the
/// first claim wins (`UPDATE … WHERE claim_desk IS NULL`: a second claimant waits for the first's
/// row lock, then finds it taken).
extension PostgresSiteStore {
    public func noteRinging(_ key: SiteCallKey, panel: String?, caller: String?, desk: String, at time: Date) async throws {
        try await run("""
            WITH call AS (
                INSERT INTO site_calls (call_id, panel, caller, started_at) VALUES ($1, $2, $3, to_timestamp($5::float8))
                ON CONFLICT (call_id) DO UPDATE SET panel = coalesce(site_calls.panel, EXCLUDED.panel),
                    caller = coalesce(site_calls.caller, EXCLUDED.caller),
                    started_at = least(site_calls.started_at, EXCLUDED.started_at)
                RETURNING call_id),
            leg AS (
                INSERT INTO site_call_desks (call_id, desk, rang_at) SELECT call_id, $4, to_timestamp($5::float8) FROM call
                ON CONFLICT (call_id, desk) DO NOTHING)
            SELECT pg_notify('\(SiteSQL.channel)', 'call:' || call_id) FROM call
            """, [key.callID, panel, caller, desk, SiteSQL.time(time)])
    }

    public func claim(_ key: SiteCallKey, _ claim: SiteCallClaim) async throws -> SiteCall {
        let parameters = [key.callID] + SiteSQL.claimParameters(claim)
        try await prepared()
        do {
            try await connection.transaction { transaction throws(PostgresError) in
                try transaction.query("INSERT INTO site_calls (call_id, started_at) VALUES ($1, to_timestamp($2::float8)) "
                    + "ON CONFLICT (call_id) DO NOTHING", [key.callID, SiteSQL.time(claim.at)])
                try transaction.query("""
                    WITH won AS (
                        UPDATE site_calls SET claim_kind = $2, claim_desk = $3, claim_operator = $4, claim_target = $5,
                            claim_at = to_timestamp($6::float8)
                        WHERE call_id = $1 AND claim_desk IS NULL RETURNING call_id)
                    SELECT pg_notify('\(SiteSQL.channel)', 'call:' || call_id) FROM won
                    """, parameters)
            }
        } catch {
            throw SiteSQL.engineError(error)
        }
        guard let call = try await call(key) else { throw SiteStoreError.unreachable("the site kept no row for call \(key)") }
        return call
    }

    public func noteEnded(_ key: SiteCallKey, desk: String, reason: String, at time: Date) async throws {
        try await run("""
            WITH leg AS (
                UPDATE site_call_desks SET ended_at = to_timestamp($4::float8), end_reason = $3
                WHERE call_id = $1 AND desk = $2 AND ended_at IS NULL RETURNING call_id)
            SELECT pg_notify('\(SiteSQL.channel)', 'call:' || call_id) FROM leg
            """, [key.callID, desk, reason, SiteSQL.time(time)])
    }

    public func call(_ key: SiteCallKey) async throws -> SiteCall? {
        try await prepared()
        do {
            return try await SiteCallRead.calls(on: connection, where: "c.call_id = $1", [key.callID]).first
        } catch {
            throw SiteSQL.engineError(error)
        }
    }

    public func activeCalls() async throws -> [SiteCall] {
        try await prepared()
        do {
            return try await SiteCallRead.calls(on: connection, where: "EXISTS (SELECT 1 FROM site_call_desks a "
                + "WHERE a.call_id = c.call_id AND a.ended_at IS NULL)", [])
        } catch {
            throw SiteSQL.engineError(error)
        }
    }
}

/// A call's row with its legs in one statement (the legs as a JSON array, in the order they rang).
enum SiteCallRead {
    static func calls(on connection: PostgresConnection, where condition: String,
                      _ parameters: [String?]) async throws(PostgresError) -> [SiteCall] {
        let rows = try await connection.query("""
            SELECT c.call_id, c.panel, c.caller, extract(epoch from c.started_at)::float8 AS started_at, \(SiteSQL.claimColumns),
                (SELECT coalesce(json_agg(json_build_array(d.desk, extract(epoch from d.rang_at)::float8,
                                                           extract(epoch from d.ended_at)::float8, d.end_reason)
                                          ORDER BY d.rang_at, d.desk), '[]')
                 FROM site_call_desks d WHERE d.call_id = c.call_id) AS legs
            FROM site_calls c WHERE \(condition) ORDER BY c.started_at, c.call_id
            """, parameters)
        return rows.rows.indices.compactMap { index in
            guard let id = rows.value("call_id", at: index), let started = SiteSQL.date(rows.value("started_at", at: index)) else {
                return nil
            }
            return SiteCall(key: SiteCallKey(id), panel: rows.value("panel", at: index), caller: rows.value("caller", at: index),
                            startedAt: started, legs: legs(rows.value("legs", at: index)), claim: SiteSQL.claim(rows, at: index))
        }
    }

    private static func legs(_ text: String?) -> [SiteCallLeg] {
        guard case .array(let legs)? = text.flatMap(JSONValue.parse) else { return [] }
        return legs.compactMap { leg in
            guard case .array(let fields) = leg, fields.count == 4, let desk = fields[0].stringValue,
                  let rang = seconds(fields[1]) else { return nil }
            return SiteCallLeg(desk: desk, rangAt: Date(timeIntervalSince1970: rang),
                               endedAt: seconds(fields[2]).map(Date.init(timeIntervalSince1970:)), reason: fields[3].stringValue)
        }
    }

    private static func seconds(_ value: JSONValue) -> Double? {
        switch value {
        case .number(let number): number
        case .integer(let number): Double(number)
        default: nil
        }
    }
}
