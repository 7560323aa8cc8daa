#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// IP address literals, checked with `inet_pton` so that we accept exactly
/// what the socket layer will accept, and compared as bytes so that `::1`
/// and `0:0:0:0:0:0:0:1` are the same caller.
public enum IPLiteral {
    /// The address bytes (4 or 16), or nil when `text` is not an IP literal.
    /// Surrounding brackets (`[::1]`) are allowed.
    public static func bytes(_ text: String) -> [UInt8]? {
        var literal = Substring(text)
        if literal.first == "[" && literal.last == "]" {
            literal = literal.dropFirst().dropLast()
        }
        let string = String(literal)
        var v4 = [UInt8](repeating: 0, count: 4)
        if v4.withUnsafeMutableBytes({ inet_pton(AF_INET, string, $0.baseAddress) }) == 1 {
            return v4
        }
        var v6 = [UInt8](repeating: 0, count: 16)
        if v6.withUnsafeMutableBytes({ inet_pton(AF_INET6, string, $0.baseAddress) }) == 1 {
            return v6
        }
        return nil
    }

    /// Like `bytes`, but an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, what a dual-stack
    /// socket reports for an IPv4 peer) is the IPv4 address it maps.
    public static func canonicalBytes(_ text: String) -> [UInt8]? {
        guard let bytes = bytes(text) else { return nil }
        if bytes.count == 16 && bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
            return Array(bytes[12...])
        }
        return bytes
    }

    public static func isValid(_ text: String) -> Bool {
        bytes(text) != nil
    }
}
