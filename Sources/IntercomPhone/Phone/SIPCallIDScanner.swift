/// Finds the Call-IDs (`Call-ID:` or compact `i:`, any case) of the INVITE requests (or of every message) in a piece of
/// SIP traffic: one datagram, or whatever one TCP read returned (several messages, or part of
/// one). Only INVITEs start calls, so only theirs are worth remembering. A message's start line
/// is the first line after a blank one (or the first of the piece); a piece that begins inside a
/// message has no INVITE start line and yields nothing, which leaves its call without a source
/// (failing closed). Works on raw bytes without building strings for lines it does not want,
/// since it runs on every SIP read.
enum SIPCallIDScanner {
    static func inviteCallIDs(in bytes: UnsafeRawBufferPointer) -> [String] {
        callIDs(in: bytes, invitesOnly: true)
    }

    /// The Call-IDs of every message in `bytes`, requests and responses alike (what we send: the
    /// dialog ledger's view).
    static func callIDs(in bytes: UnsafeRawBufferPointer, invitesOnly: Bool = false) -> [String] {
        var found: [String] = []
        var index = 0
        let count = bytes.count
        var atMessageStart = true
        var inWanted = false
        while index < count {
            // `index` is at a line start.
            var end = index
            while end < count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            let blank = end == index || (end == index + 1 && bytes[index] == UInt8(ascii: "\r"))
            if blank {
                // Between messages (belle-sip skips CR and LF there), or the end of a head.
                atMessageStart = true
            } else if atMessageStart {
                atMessageStart = false
                inWanted = !invitesOnly || starts(bytes, at: index, end: end, with: invite)
            } else if inWanted, let value = value(in: bytes, from: index, to: end) {
                found.append(value)
            }
            index = end + 1
        }
        return found
    }

    private static let invite = Array("INVITE ".utf8)

    private static func starts(_ bytes: UnsafeRawBufferPointer, at start: Int, end: Int, with prefix: [UInt8]) -> Bool {
        guard end - start >= prefix.count else { return false }
        for offset in 0..<prefix.count where bytes[start + offset] != prefix[offset] { return false }
        return true
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
