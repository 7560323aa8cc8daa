import Foundation
import IntercomBase

/// A flat's settings, its entry code, who shares it, and its event log.
extension OperatorClient {
    /// The flat's intercom settings.
    public func intercom(flatId: String) async throws(OperatorError) -> FlatSettings {
        let zone = await timeZone()
        guard let settings = FlatSettings(json: try await call("address/intercom", [("flatId", .id(flatId))]), timeZone: zone) else {
            throw shape("the flat settings")
        }
        return settings
    }

    /// Applies `changes`; the answer's shape is not relied on (an operator may override the
    /// method), so callers read the settings back with `intercom(flatId:)`.
    public func setIntercom(flatId: String, changes: [FlatSettingChange]) async throws(OperatorError) {
        let zone = await timeZone()
        _ = try await call("address/intercom", [("flatId", .id(flatId)),
                                                ("settings", .object(changes.map { ($0.wireKey, .string($0.wireValue(in: zone))) }))])
    }

    /// A new entry code (`address/resetCode`; any member of the flat may). The server answers a
    /// number, so a code with leading zeros comes back without them, as the server has it.
    public func resetCode(flatId: String) async throws(OperatorError) -> String {
        guard let code = try await call("address/resetCode", [("flatId", .id(flatId))])?["code"]?.looseString,
              !code.isEmpty else {
            throw shape("the resetCode answer (no code)")
        }
        return code
    }

    /// Gives `guestPhone` access (`address/access` without `expire`). The server has no expiry
    /// for shared access: it ignores `expire` when adding and lists everyone until 3001.
    public func addAccess(flatId: String, guestPhone: String) async throws(OperatorError) {
        try await access([("flatId", .id(flatId)), ("guestPhone", .string(guestPhone))])
    }

    /// Takes `guestPhone`'s access back. The server removes only when `strtotime(expire) < time()`
    /// in its own zone (1970-01-01 reads as 0, then as now, and adds instead), so the time sent
    /// is two days back: in the past whatever the zone, and far from 1970.
    public func removeAccess(flatId: String, guestPhone: String, now: Date = Date()) async throws(OperatorError) {
        let expire = OperatorTime.format(now.addingTimeInterval(-2 * 86400), timeZone: await timeZone())
        try await access([("flatId", .id(flatId)), ("guestPhone", .string(guestPhone)), ("expire", .string(expire))])
    }

    /// The server says "no right to delete" as a 200 with a string: that is a refusal.
    private func access(_ body: [(String, JSONValue)]) async throws(OperatorError) {
        if let data = try await call("address/access", body), let text = data.stringValue, !text.isEmpty {
            throw OperatorError(operatorName: config.name, kind: .refusedInAnswer, serverText: text)
        }
    }

    public func plogDays(flatId: String) async throws(OperatorError) -> [PlogDay] {
        guard let list = PlogDay.list(try await call("address/plogDays", [("flatId", .id(flatId))])) else {
            throw shape("the event-log days")
        }
        return list
    }

    /// A day of the log; an entry of this client's own opening teaches the server's zone first.
    public func plog(flatId: String, day: String) async throws(OperatorError) -> [PlogEntry] {
        let data = try await call("address/plog", [("flatId", .id(flatId)), ("day", .string(day))])
        var raw: [JSONValue] = []
        if let data {
            guard let list = data.arrayValue else { throw shape("the event log") }
            raw = list
        }
        learn(from: raw)
        let zone = await timeZone()
        return raw.compactMap { PlogEntry(json: $0, timeZone: zone) }
    }
}

extension OperatorClient {
    /// The flat's settings after applying `changes` (fields first, then a new door code), read back
    /// from the operator: what `intercom settings` and the daemon's `settings` request both show.
    /// The caller checked `FlatSettingChange.ownerRefusal` first.
    public func settings(of flat: OperatorFlat, applying changes: [FlatSettingChange]) async throws(OperatorError) -> FlatSettings {
        let fields = changes.filter { !$0.resetsDoorCode }
        if !fields.isEmpty { try await setIntercom(flatId: flat.flatId, changes: fields) }
        if changes.contains(where: \.resetsDoorCode) { _ = try await resetCode(flatId: flat.flatId) }
        return try await intercom(flatId: flat.flatId)
    }
}
