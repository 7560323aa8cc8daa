import Foundation
import IntercomBase
import IntercomAttach
import IntercomCore
import IntercomImaging
import IntercomPhone
import Synchronization

/// A screen's own engine, in this process: its commands (the frame subscriptions and the door
/// list among them) go to the `Intercom` actor's `execute`, as the daemon's connections send
/// theirs; its picture wants go straight into the engine's table (`PictureWants`, the `picture`
/// command's), and the pictures are read straight from the engine's hubs.
public final class LocalLink: IntercomLink {
    public let intercom: Intercom
    public var mode: LinkMode { .ownEngine }
    /// This screen's, as a control connection's is the daemon's: unique in the engine.
    public let subscriber = Subscriber("screen \(UUID().uuidString)")

    /// Who this screen's commands come from: the screen (`tui`, `kiosk`, `watch`) of this process's user.
    public let who: FaceIdentity

    public init(_ intercom: Intercom, screen: String = "tui") {
        self.intercom = intercom
        self.who = FaceIdentity(.screen, kind: screen, user: FaceIdentity.ownUser)
    }

    public func events() -> AsyncStream<IntercomEvent> { intercom.bus.subscribe() }
    public func panels() async -> [String] { await intercom.config.panels.map(\.name) }
    public func execute(_ command: IntercomCommand) async throws -> JSONValue { try await intercom.execute(command, as: who) }

    /// The `picture` command's table, set on the screen's thread at once (it cannot await the
    /// actor, and a task per call would be one nobody owns): merged with every other face's wants.
    public func want(panel: String, size: PixelSize, live: Bool) {
        intercom.pictureWants.set(subscriber, panel: panel, PictureWant(width: size.width, height: size.height, live: live))
    }
    public func latest(panel: String) -> PeepholeFrame? { intercom.peephole.latest(panel: panel) }
    public func problem(panel: String) -> String? { intercom.peephole.problem(panel: panel) }
    public func streamNote(panel: String) -> String? { intercom.peephole.streamNote(panel: panel) }

    public func callVideo() -> CallPicture? {
        // The hub is the phone's; it exists once the engine started (`video` is read then).
        guard let frame = video.withLock({ $0 })?.latest else { return nil }
        return CallPicture(call: frame.call, sequence: frame.sequence) {
            RGBImage(width: frame.width, height: frame.height, pixels: frame.rgb())
        }
    }

    public func addWaker(_ wake: @escaping @Sendable (String) -> Void) -> UUID { intercom.peephole.addWaker(wake) }
    public func removeWaker(_ id: UUID) { intercom.peephole.removeWaker(id) }

    /// The screen closed: its panels, camera and picture wants go (what another face shows plays
    /// on); awaited, so the streams' decode threads are gone before the caller stops the engine.
    public func finish() async { _ = try? await intercom.execute(.unwatch(subscriber)) }

    private let video = Mutex<VideoFrameHub?>(nil)

    /// Reads the phone's video hub (the engine must be started): the screen's thread cannot await it.
    public func prepare() async {
        let hub = await intercom.video
        video.withLock { $0 = hub }
    }
}
