import Foundation
import IntercomBase
import IntercomImaging

/// Where the journal's pictures come from; a protocol so the recorder can be tested without video.
public protocol JournalPictureSource: Sendable {
    /// The newest peephole picture of this call as JPEG (`PeepholeHub.journalPicture`), if any.
    func peepholeJPEG(call: CallID, panel: String?) -> Data?
    /// A JPEG of the newest frame of the call's own SIP video, if one has arrived.
    func videoJPEG(call: CallID) async -> Data?
}

/// Pictures of the running core: its peephole hub and its phone's video hub.
public struct IntercomPictureSource: JournalPictureSource {
    let intercom: Intercom

    public init(_ intercom: Intercom) { self.intercom = intercom }

    public func peepholeJPEG(call: CallID, panel: String?) -> Data? {
        guard let panel, let frame = intercom.peephole.journalPicture(panel: panel, call: call) else { return nil }
        // A live frame carries no JPEG: it is encoded as the call's video is.
        return frame.jpeg ?? (try? JPEG.encode(frame.image, quality: 85))
    }

    public func videoJPEG(call: CallID) async -> Data? {
        guard let frame = await intercom.video?.latest, frame.call == call,
              let image = RGBImage(width: frame.width, height: frame.height, pixels: frame.rgb()) else { return nil }
        return try? JPEG.encode(image, quality: 85)
    }
}
