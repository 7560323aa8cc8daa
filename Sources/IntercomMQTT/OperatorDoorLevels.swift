import IntercomBase

/// The topic level (and object id) of each operator door. The doors come from the operator's API
/// at run time, so two of them folding into one slug (`home:a.b:0` and `home:a b:0`) cannot be
/// refused at load like two panels: instead each door of such a pair gets its slug plus a hash of
/// its whole id (`home_a_b_0_5397a4a9`). The hash is FNV-1a, not Swift's `Hasher` (seeded anew in
/// every process): a button keeps its topic across restarts and whatever order the API lists the
/// doors in, and two doors are never merged into one button. A door whose level would still meet
/// another's (only a contrived id can) gets no button at all, never a shared one (`left`).
struct OperatorDoorLevels: Sendable, Equatable {
    /// Door id → topic level, for the doors that have one.
    private let levels: [String: String]
    /// Door ids in the API's order, for publishing in that order.
    let ids: [String]
    /// Doors left without a button.
    let left: [String]

    init(_ doorIDs: [String]) {
        var slugs: [String: Int] = [:]
        for id in Set(doorIDs) { slugs[MQTTName.slug(id), default: 0] += 1 }
        var levels: [String: String] = [:]
        var taken: Set<String> = []
        var left: [String] = []
        var ids: [String] = []
        // Plain slugs claim their level first, so a hashed level never takes one away.
        let unique = doorIDs.filter { slugs[MQTTName.slug($0)] == 1 }
        let shared = doorIDs.filter { slugs[MQTTName.slug($0)] ?? 0 > 1 }
        for id in unique + shared where levels[id] == nil && !left.contains(id) {
            let slug = MQTTName.slug(id)
            let level = slugs[slug] == 1 ? slug : slug + "_" + Self.hash(id)
            if taken.insert(level).inserted { levels[id] = level } else { left.append(id) }
        }
        var listed: Set<String> = []
        for id in doorIDs where levels[id] != nil && listed.insert(id).inserted { ids.append(id) }
        self.levels = levels
        self.ids = ids
        self.left = left
    }

    func level(_ id: String) -> String? { levels[id] }

    /// 32-bit FNV-1a of the id's UTF-8, as 8 hex digits.
    static func hash(_ id: String) -> String {
        var value: UInt32 = 0x811C_9DC5
        for byte in id.utf8 {
            value ^= UInt32(byte)
            value = value &* 0x0100_0193
        }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
