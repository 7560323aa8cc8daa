import Foundation
import IntercomBase

/// The desks (`ctl site`, `ctl duty`) and the shared journal.
extension SiteLink {
    /// The site's desks as seen now; throws when the store cannot be reached (`ctl site` says so).
    public func desks() async throws -> [SiteDeskRow] {
        do {
            return SiteDeskRow.rows(try await store.desks(), now: clock.date, offlineAfter: settings.offlineAfter)
        } catch {
            lost(error)
            throw error
        }
    }

    /// `ctl duty on|off [--operator NAME]`: the desk's duty changes here at once and reaches the
    /// other desks with a heartbeat sent now (with the store down, at the first one that works).
    public func setDuty(_ onDuty: Bool, operatorName: String?) async -> SiteSettings {
        settings.onDuty = onDuty
        if let operatorName { settings.operatorName = operatorName }
        await heartbeatNow()
        return settings
    }

    // MARK: the journal

    /// An entry of this desk's journal, for the site. A forked call is one entry at the site: the
    /// desk that took it writes it (with the desks it rang at and the claim); a desk whose leg was
    /// answered elsewhere writes nothing; an unanswered ring is written by every desk under the
    /// same id (made from its Call-ID), so the site keeps it once.
    public func journal(_ entry: JournalEntry, call key: SiteCallKey? = nil) async {
        guard entry.outcome != "answered_elsewhere" else { return }
        var row: SiteCall?
        if let key {
            // This desk's own notes of the call (its ring, its claim) reach the site first, so the
            // row read back holds them (a frozen store: up to `[site] timeout`, on the journal's task).
            await flushed()
            if unreachable == nil {
                do { row = try await store.call(key) } catch { lost(error) }
            }
        }
        let claim = row?.claim ?? key.flatMap { claims[$0] }
        let acted = entry.kind == .call && entry.answeredBy != nil || entry.kind == .door
        let site = SiteJournalEntry(id: siteID(entry, key: key), desk: settings.desk,
                                    operatorName: acted ? settings.operatorName : nil, callKey: key,
                                    rangAt: row?.legs.map(\.desk) ?? [settings.desk], claim: claim, entry: entry)
        send(.append([site]))
    }

    /// `handled`/`callback` of a site entry at this desk: out of every desk's queue.
    public func handled(_ id: UUID, by who: String) {
        send(.handled(id, by: who, at: clock.date))
    }

    /// The site's journal id of a forked call: the same at every desk, made from its Call-ID
    /// (FNV-1a, two 64-bit lanes; a name-based id, not a secret), so the store keeps it once.
    public static func entryID(_ key: SiteCallKey) -> UUID {
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in key.callID.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return hash
        }
        let (high, low) = (fnv(0xcbf2_9ce4_8422_2325), fnv(0x8422_2325_cbf2_9ce4))
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64(i)))
            bytes[8 + i] = UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64(i)))
        }
        bytes[6] = bytes[6] & 0x0f | 0x80 // version 8: made by the application
        bytes[8] = bytes[8] & 0x3f | 0x80 // the RFC 9562 variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
