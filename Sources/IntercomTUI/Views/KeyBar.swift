/// The key bar: what each key does now, in the order shown, each with a rank. A narrow window
/// drops the least needed keys first (the highest rank, the rightmost of equals), never `? help`,
/// so no key is ever cut in half; what is left over is shortened with "…" only if even the
/// essential keys do not fit.
struct KeyBar: Equatable {
    struct Item: Equatable {
        var text: String
        /// 0: always shown (`? help`); 1: the key the screen is about (answer, hang up, open);
        /// higher: dropped earlier.
        var rank: Int
        init(_ text: String, _ rank: Int) {
            self.text = text
            self.rank = rank
        }
    }

    static let help = Item("? help", 0)
    static let separator = "  "

    var items: [Item]

    init(_ items: [Item]) { self.items = items }

    /// The bar's text for `width` columns (a leading space, then the items).
    func fit(_ width: Int) -> String {
        var shown = items
        func text() -> String { " " + shown.map(\.text).joined(separator: Self.separator) }
        while text().count > width {
            // The least needed: the highest rank, and of those the rightmost.
            guard let worst = shown.indices.filter({ shown[$0].rank > 0 }).max(by: {
                (shown[$0].rank, $0) < (shown[$1].rank, $1)
            }) else { break }
            // The last essential key: shortened rather than dropped when it alone is too long.
            if shown.filter({ $0.rank > 0 }).count == 1 && shown[worst].rank == 1 { break }
            shown.remove(at: worst)
        }
        guard text().count > width else { return text() }
        // Only the essentials are left and still too long: the first (it names the call) gives way.
        let rest = shown.dropFirst().map(\.text).joined(separator: Self.separator)
        guard let first = shown.first, first.rank > 0 else { return TextFit.ellipsize(text(), width) }
        let room = width - 1 - rest.count - (rest.isEmpty ? 0 : Self.separator.count)
        guard room >= 4 else { return TextFit.ellipsize(text(), width) }
        return " " + TextFit.ellipsize(first.text, room) + (rest.isEmpty ? "" : Self.separator + rest)
    }
}
