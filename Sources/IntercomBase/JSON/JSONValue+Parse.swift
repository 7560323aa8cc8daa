extension JSONValue {
    /// Parses one JSON text (RFC 8259; a bare value is JSON too) into a value; nil if it is not JSON.
    /// Object keys come out sorted (a key said twice keeps its last value) and a whole number below
    /// 10^15 is an `integer`, as when Foundation's JSONSerialization read it for us. Read here, byte
    /// by byte: JSONSerialization's Foundation objects, cast back one by one, were half of a site
    /// `log`'s time. Nesting deeper than 512 (JSONSerialization's own bound) is refused, not recursed.
    public static func parse(_ text: String) -> JSONValue? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = JSONReader(bytes: bytes)
            // A byte-order mark before the text is skipped, as JSONSerialization did.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
            guard let value = reader.value(depth: 0) else { return nil }
            reader.skipSpace()
            return reader.index == bytes.count ? value : nil
        }
    }
}

private struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    static let deepest = 512

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    mutating func value(depth: Int) -> JSONValue? {
        guard depth < Self.deepest else { return nil }
        skipSpace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object(depth)
        case UInt8(ascii: "["): return array(depth)
        case UInt8(ascii: "\""): return string().map { .string($0) }
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    private mutating func object(_ depth: Int) -> JSONValue? {
        index += 1
        var fields: [(String, JSONValue)] = []
        skipSpace()
        if take(UInt8(ascii: "}")) { return .object([]) }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
            skipSpace()
            guard take(UInt8(ascii: ":")), let value = value(depth: depth + 1) else { return nil }
            fields.append((key, value))
            skipSpace()
            guard take(UInt8(ascii: ",")) else { break }
            // JSONSerialization let a comma close the list (`{"a":1,}`): so do we.
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { break }
        }
        guard take(UInt8(ascii: "}")) else { return nil }
        return .object(Self.sortedKeepingLast(fields))
    }

    /// By key; of a key said twice, its last value (a list, not a dictionary: entries have a dozen keys).
    private static func sortedKeepingLast(_ fields: [(String, JSONValue)]) -> [(String, JSONValue)] {
        let sorted = fields.indices.sorted { fields[$0].0 != fields[$1].0 ? fields[$0].0 < fields[$1].0 : $0 < $1 }
        var kept: [(String, JSONValue)] = []
        kept.reserveCapacity(sorted.count)
        for index in sorted {
            if let last = kept.last, last.0 == fields[index].0 { kept.removeLast() }
            kept.append(fields[index])
        }
        return kept
    }

    private mutating func array(_ depth: Int) -> JSONValue? {
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if take(UInt8(ascii: "]")) { return .array([]) }
        while true {
            guard let item = value(depth: depth + 1) else { return nil }
            items.append(item)
            skipSpace()
            guard take(UInt8(ascii: ",")) else { break }
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { break }
        }
        guard take(UInt8(ascii: "]")) else { return nil }
        return .array(items)
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count,
              word.withUTF8Buffer({ $0.elementsEqual(bytes[index..<index + count]) }) else { return nil }
        index += count
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as a Double first (JSONSerialization's
    /// numbers were read back through their double value too).
    private mutating func number() -> JSONValue? {
        let start = index
        _ = take(UInt8(ascii: "-"))
        if !take(UInt8(ascii: "0")) { guard digits() else { return nil } }
        if take(UInt8(ascii: ".")) { guard digits() else { return nil } }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() else { return nil }
        }
        guard let d = Double(String(decoding: bytes[start..<index], as: UTF8.self)), d.isFinite else { return nil }
        return JSONValue.whole(d).map(JSONValue.integer) ?? .number(d)
    }

    /// One or more digits.
    private mutating func digits() -> Bool {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index > start
    }

    /// A string from its opening quote: taken whole when it has no escape (most do), else unescaped.
    /// A raw control character or a lone surrogate is not JSON.
    private mutating func string() -> String? {
        index += 1
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
            guard bytes[index] >= 0x20 else { return nil }
            index += 1
        }
        guard index < bytes.count else { return nil }
        var text = String(decoding: bytes[start..<index], as: UTF8.self)
        while bytes[index] == UInt8(ascii: "\\") {
            index += 1
            guard index < bytes.count, let scalar = escaped() else { return nil }
            text.unicodeScalars.append(scalar)
            let run = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                guard bytes[index] >= 0x20 else { return nil }
                index += 1
            }
            guard index < bytes.count else { return nil }
            text += String(decoding: bytes[run..<index], as: UTF8.self)
        }
        index += 1
        return text
    }

    /// The character an escape after its backslash stands for.
    private mutating func escaped() -> Unicode.Scalar? {
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let unit = hex4() else { return nil }
            guard (0xD800...0xDFFF).contains(unit) else { return Unicode.Scalar(unit) }
            // A high surrogate, then its low one as a second escape.
            guard unit < 0xDC00, bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { return nil }
            index += 2
            guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
        default: return nil
        }
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var unit: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = HexDigit.value(bytes[index]).map(UInt32.init) else { return nil }
            unit = unit << 4 | digit
            index += 1
        }
        return unit
    }
}
