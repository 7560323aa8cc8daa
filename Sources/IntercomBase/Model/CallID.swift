/// A call's identity for the whole program: stable from the first event to the last,
/// short enough to type (`intercom ctl answer c3`).
public struct CallID: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
    public static func < (a: CallID, b: CallID) -> Bool {
        (a.rawValue.count, a.rawValue) < (b.rawValue.count, b.rawValue)
    }
    public init(from decoder: Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}
