import Foundation
import IntercomBase
import IntercomImaging

/// One decoded panel snapshot, as the peephole shows it.
public struct PeepholeFrame: Sendable {
    public var panel: String
    /// The ringing call it was fetched for; nil for `intercom watch` without a call.
    public var call: CallID?
    public var jpeg: Data
    public var image: RGBImage
    /// Counts frames of this peephole from 1.
    public var sequence: Int
    public var fetchedAt: Date
}
