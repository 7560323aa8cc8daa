/// The body of a Beward `action=get`: one `Key=Value` per line.
///
/// Lines may end in CRLF, values may themselves contain `=` (URLs, base64),
/// and indexed keys (`Phone1_1`) are just keys, so the split is on the first `=` only.
public struct KeyValueBody: Sendable, Equatable {
    /// Pairs in body order, duplicates kept.
    public let pairs: [(key: String, value: String)]

    public init(parsing text: String) {
        var pairs: [(key: String, value: String)] = []
        // Swift reads "\r\n" as one Character, so both line ends are matched explicitly.
        let lines = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        for line in lines {
            // The '=' is looked for as a scalar: as a Character, `=` followed by a combining
            // mark is a different letter and the whole pair would vanish.
            guard let eq = line.unicodeScalars.firstIndex(of: "=") else { continue }
            let key = line[..<eq].trimmingSpaces
            guard !key.isEmpty else { continue }
            pairs.append((key: String(key), value: String(line[line.unicodeScalars.index(after: eq)...])))
        }
        self.pairs = pairs
    }

    /// The first value for `key` (exact, case-sensitive, as the firmware writes it).
    public subscript(key: String) -> String? {
        pairs.first(where: { $0.key == key })?.value
    }

    public var keys: [String] { pairs.map(\.key) }

    public static func == (lhs: KeyValueBody, rhs: KeyValueBody) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.key == $1.key && $0.value == $1.value }
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return s
    }
}
