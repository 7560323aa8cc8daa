/// Finds the Call-ID header values (`Call-ID:` or compact `i:`, any case) at line starts in a
/// piece of SIP traffic: one datagram, or whatever one TCP read returned (several messages, or
/// part of one). Works on raw bytes without building strings for lines it does not want, since
/// it runs on every SIP read.
enum SIPCallIDScanner {
    static func callIDs(in bytes: UnsafeRawBufferPointer) -> [String] {
        var found: [String] = []
        var index = 0
        let count = bytes.count
        while index < count {
            // `index` is at a line start.
            var end = index
            while end < count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            if let value = value(in: bytes, from: index, to: end) { found.append(value) }
            index = end + 1
        }
        return found
    }

    private static func value(in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> String? {
        var colon = start
        while colon < end && colon - start <= 8 && bytes[colon] != UInt8(ascii: ":") { colon += 1 }
        guard colon < end, bytes[colon] == UInt8(ascii: ":") else { return nil }
        var nameEnd = colon
        while nameEnd > start && (bytes[nameEnd - 1] == UInt8(ascii: " ") || bytes[nameEnd - 1] == UInt8(ascii: "\t")) {
            nameEnd -= 1
        }
        guard isCallIDName(bytes, from: start, to: nameEnd) else { return nil }
        var valueStart = colon + 1
        var valueEnd = end
        while valueStart < valueEnd && isBlank(bytes[valueStart]) { valueStart += 1 }
        while valueEnd > valueStart && isBlank(bytes[valueEnd - 1]) { valueEnd -= 1 }
        guard valueStart < valueEnd else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[valueStart..<valueEnd]), as: UTF8.self)
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    private static let fullName = Array("call-id".utf8)

    private static func isCallIDName(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Bool {
        let length = end - start
        if length == 1 { return bytes[start] | 0x20 == UInt8(ascii: "i") }
        guard length == fullName.count else { return false }
        for offset in 0..<length where bytes[start + offset] | 0x20 != fullName[offset] | 0x20 { return false }
        return true
    }
}
