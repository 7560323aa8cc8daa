import CZlib

/// zlib's one-shot deflate and inflate (the format kitty's `o=z` takes: a zlib stream, RFC 1950).
enum Zlib {
    /// Level 1 (fastest): a camera picture compresses nearly as well as at the default level 6,
    /// in a fraction of the time, and this runs for every video frame.
    static let level: Int32 = 1

    /// The bytes deflated; nil only if zlib fails (out of memory), when the caller sends them raw.
    static func deflate(_ bytes: [UInt8], level: Int32 = level) -> [UInt8]? {
        let bound = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(bound))
        var length = uLongf(bound)
        let status = out.withUnsafeMutableBufferPointer { dst in
            bytes.withUnsafeBufferPointer { src in
                compress2(dst.baseAddress, &length, src.baseAddress, uLong(src.count), level)
            }
        }
        guard status == Z_OK else { return nil }
        out.removeSubrange(Int(length)...)
        return out
    }

    /// A zlib stream inflated into exactly `count` bytes; nil when it is not one or is another size.
    static func inflate(_ bytes: [UInt8], count: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: max(count, 1))
        var length = uLongf(out.count)
        let status = out.withUnsafeMutableBufferPointer { dst in
            bytes.withUnsafeBufferPointer { src in
                uncompress(dst.baseAddress, &length, src.baseAddress, uLong(src.count))
            }
        }
        guard status == Z_OK, Int(length) == count else { return nil }
        return Array(out.prefix(count))
    }
}
