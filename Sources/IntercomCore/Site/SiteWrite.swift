import Foundation
import IntercomBase

/// One write a desk makes to its site, as a value: what `SiteLink` sends at once, or keeps in the
/// outbox while the store is down and sends in order when it is back. Each is safe to send twice
/// (later-wins switches, first-wins claims, entries by id), so a replay cut short is simply sent again.
public enum SiteWrite: Sendable, Equatable {
    case publish(SiteSwitchChange)
    case ringing(SiteCallKey, panel: String?, caller: String?, desk: String, at: Date)
    case claim(SiteCallKey, SiteCallClaim)
    case ended(SiteCallKey, desk: String, reason: String, at: Date)
    case append([SiteJournalEntry])
    case handled(UUID, by: String, at: Date)

    /// Sends it; throws what the store threw. A claim's row as the store keeps it after the claim
    /// (who won), nil for the other writes.
    @discardableResult
    func send(to store: any SiteStore) async throws -> SiteCall? {
        switch self {
        case .publish(let change): try await store.publish(change)
        case .ringing(let key, let panel, let caller, let desk, let time):
            try await store.noteRinging(key, panel: panel, caller: caller, desk: desk, at: time)
        case .claim(let key, let claim): return try await store.claim(key, claim)
        case .ended(let key, let desk, let reason, let time): try await store.noteEnded(key, desk: desk, reason: reason, at: time)
        case .append(let entries): try await store.append(entries)
        case .handled(let id, let who, let time):
            do { try await store.markHandled(id, by: who, at: time) } catch SiteStoreError.noEntry {
                // Handled here before its entry reached the site, and the entry never will: nothing to mark.
            }
        }
        return nil
    }
}

// The outbox's file: one JSON object a line.
extension SiteWrite {
    public var json: JSONValue {
        switch self {
        case .publish(let change): .object([("write", .string("publish")), ("switch", change.json)])
        case .ringing(let key, let panel, let caller, let desk, let time):
            .object([("write", .string("ringing")), ("call", .string(key.callID)), ("panel", .optional(panel)),
                     ("caller", .optional(caller)), ("desk", .string(desk)), ("at", .string(RFC3339.string(time)))])
        case .claim(let key, let claim):
            .object([("write", .string("claim")), ("call", .string(key.callID)), ("claim", claim.json)])
        case .ended(let key, let desk, let reason, let time):
            .object([("write", .string("ended")), ("call", .string(key.callID)), ("desk", .string(desk)),
                     ("reason", .string(reason)), ("at", .string(RFC3339.string(time)))])
        case .append(let entries): .object([("write", .string("append")), ("entries", .array(entries.map(\.json)))])
        case .handled(let id, let who, let time):
            .object([("write", .string("handled")), ("id", .string(id.uuidString)), ("by", .string(who)),
                     ("at", .string(RFC3339.string(time)))])
        }
    }

    public init?(json: JSONValue) {
        func text(_ key: String) -> String? { json[key]?.stringValue }
        let call = text("call").map(SiteCallKey.init)
        let at = text("at").flatMap(RFC3339.date)
        switch text("write") {
        case "publish":
            guard let change = json["switch"].flatMap(SiteSwitchChange.init(json:)) else { return nil }
            self = .publish(change)
        case "ringing":
            guard let call, let desk = text("desk"), let at else { return nil }
            self = .ringing(call, panel: text("panel"), caller: text("caller"), desk: desk, at: at)
        case "claim":
            guard let call, let claim = json["claim"].flatMap(SiteCallClaim.init(json:)) else { return nil }
            self = .claim(call, claim)
        case "ended":
            guard let call, let desk = text("desk"), let reason = text("reason"), let at else { return nil }
            self = .ended(call, desk: desk, reason: reason, at: at)
        case "append":
            guard case .array(let items)? = json["entries"] else { return nil }
            let entries = items.compactMap(SiteJournalEntry.init(json:))
            guard entries.count == items.count else { return nil }
            self = .append(entries)
        case "handled":
            guard let id = text("id").flatMap(UUID.init(uuidString:)), let who = text("by"), let at else { return nil }
            self = .handled(id, by: who, at: at)
        default: return nil
        }
    }
}

// The site's values as JSON: the outbox, `ctl site --json`, and a store that keeps them as text.
extension SiteSwitchChange {
    public var json: JSONValue {
        .object([("panel", .string(panel)), ("kind", .string(kind.rawValue)), ("value", .string(value)),
                 ("desk", .string(desk)), ("operator", .optional(operatorName)), ("at", .string(RFC3339.string(at)))])
    }

    public init?(json: JSONValue) {
        guard let panel = json["panel"]?.stringValue, let kind = json["kind"]?.stringValue.flatMap(SiteSwitchKind.init),
              let value = json["value"]?.stringValue, let desk = json["desk"]?.stringValue,
              let at = json["at"]?.stringValue.flatMap(RFC3339.date) else { return nil }
        self.init(panel: panel, kind: kind, value: value, desk: desk, operatorName: json["operator"]?.stringValue, at: at)
    }
}

extension SiteCallClaim {
    public var json: JSONValue {
        SiteEntryJSON.claim(kind: kind.rawValue, desk: desk, operatorName: operatorName, target: target, at: at)
    }

    public init?(json: JSONValue) {
        guard let kind = json["kind"]?.stringValue.flatMap(Kind.init), let desk = json["desk"]?.stringValue,
              let at = json["at"]?.stringValue.flatMap(RFC3339.date) else { return nil }
        self.init(kind: kind, desk: desk, operatorName: json["operator"]?.stringValue, target: json["target"]?.stringValue, at: at)
    }
}

extension SiteJournalEntry {
    /// The desk's entry as `intercom log --json` prints it, with the site's fields after it.
    public var json: JSONValue {
        SiteEntryJSON.entry(entry, siteID: id, desk: desk, operatorName: operatorName, callID: callKey?.callID,
                            rangAt: rangAt, claim: claim?.json, missed: missed)
    }

    public init?(json: JSONValue) {
        guard let id = json["site_id"]?.stringValue.flatMap(UUID.init(uuidString:)), let desk = json["desk"]?.stringValue,
              let entry = JournalEntry(json: json) else { return nil }
        var rangAt: [String] = []
        if case .array(let desks)? = json["rang_at"] { rangAt = desks.compactMap(\.stringValue) }
        self.init(id: id, desk: desk, operatorName: json["desk_operator"]?.stringValue,
                  callKey: json["site_call"]?.stringValue.map(SiteCallKey.init), rangAt: rangAt,
                  claim: json["claim"].flatMap(SiteCallClaim.init(json:)), entry: entry)
    }
}
