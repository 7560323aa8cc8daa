import Foundation
import IntercomBase

/// One picture of a panel's camera, as the peephole shows it: a decoded JPEG snapshot, or a
/// frame of the camera's live stream (already scaled by the decoder to what the viewer asked for).
public struct PeepholeFrame: Sendable {
    /// Where a picture came from: the status line says which, and only snapshots carry a JPEG.
    public enum Kind: String, Sendable { case snapshot, live }

    public var panel: String
    /// The ringing call it was fetched for; nil for `intercom watch` without a call.
    public var call: CallID?
    /// The snapshot as the panel sent it; nil for a live frame.
    public var jpeg: Data?
    public var image: RGBImage
    /// Counts the panel's pictures in the hub from 1, snapshots and live frames together.
    public var sequence: Int
    public var fetchedAt: Date
    public var kind: Kind = .snapshot

    /// A frame from elsewhere: an attached screen's copy of the daemon's picture.
    public init(panel: String, call: CallID?, jpeg: Data?, image: RGBImage, sequence: Int, fetchedAt: Date, kind: Kind = .snapshot) {
        self.panel = panel
        self.call = call
        self.jpeg = jpeg
        self.image = image
        self.sequence = sequence
        self.fetchedAt = fetchedAt
        self.kind = kind
    }
}
