import IntercomImaging
import Synchronization

/// What size a stream's pictures come out at: set by whoever shows them (`VideoStream.resize`),
/// read by the decode thread before scaling each frame, so a window resize changes the scaler's
/// output without reconnecting (and without waiting for the next key frame).
final class ScaleTarget: Sendable {
    /// How `size` is met: `exactly` stretches to it; `within` keeps the picture's shape (its
    /// sample aspect ratio included) and gives the largest size that fits inside it, never larger
    /// than the picture itself (a terminal scales a small picture up for free; the decoder would
    /// only multiply the bytes to send).
    enum Fit: Sendable { case exactly, within }

    /// Nil keeps each frame's own size (a one-picture decode).
    private let box: Mutex<PixelSize?>
    let fit: Fit

    init(_ size: PixelSize?, fit: Fit) {
        box = Mutex(size)
        self.fit = fit
    }

    var size: PixelSize? { box.withLock { $0 } }

    func set(_ size: PixelSize) { box.withLock { $0 = size } }

    /// The output size for a decoded picture of `width`×`height` whose pixels are `sampleAspect` wide.
    func output(width: Int, height: Int, sampleAspect: Double) -> PixelSize {
        guard let box = size else { return PixelSize(width: width, height: height) }
        guard fit == .within, width > 0, height > 0, box.width > 0, box.height > 0 else { return box }
        let shownWidth = Double(width) * (sampleAspect > 0 ? sampleAspect : 1)
        let scale = min(1, Double(box.width) / shownWidth, Double(box.height) / Double(height))
        return PixelSize(width: max(1, min(box.width, Int((shownWidth * scale).rounded()))),
                         height: max(1, min(box.height, Int((Double(height) * scale).rounded()))))
    }
}
