import Foundation
import IntercomBase
import IntercomImaging

/// What a screen (the TUI, the kiosk, `watch`) works with instead of the engine itself: the
/// intercom's events, its commands (the door list and the panels and cameras it shows among them)
/// and its pictures. `LocalLink` wraps an engine of the screen's own; `RemoteLink` is attached to
/// the user's daemon over the control socket. Everything a screen calls on its own thread
/// (pictures, wakers) returns at once.
public protocol IntercomLink: AnyObject, Sendable {
    /// Where the engine runs; the title says it.
    var mode: LinkMode { get }
    /// Called once the engine runs, before the screen opens.
    func prepare() async
    /// Every event from now on, until the link ends.
    func events() -> AsyncStream<IntercomEvent>
    /// The panels' names, in the config's order.
    func panels() async -> [String]
    /// Runs a command on the intercom; its data, or an `IntercomError` (remote: `RemoteLinkError`).
    func execute(_ command: IntercomCommand) async throws -> JSONValue
    /// Who this screen's frame subscriptions (`watch`, `watchCamera`, `unwatch`) are held by: its
    /// own, unique in the engine; attached, `.sender` (the daemon's connection is the subscriber).
    var subscriber: Subscriber { get }

    /// The screen draws `panel` at `size`; `live` asks for its stream, else stills alone. The
    /// engine merges it with every other screen's (`IntercomCommand.picture`).
    func want(panel: String, size: PixelSize, live: Bool)
    /// The panel's newest picture.
    func latest(panel: String) -> PeepholeFrame?
    func problem(panel: String) -> String?
    func streamNote(panel: String) -> String?
    /// The answered call's newest video picture.
    func callVideo() -> CallPicture?
    /// `wake(panel)` after each new picture of a panel, until `removeWaker`.
    func addWaker(_ wake: @escaping @Sendable (String) -> Void) -> UUID
    func removeWaker(_ id: UUID)
    /// The screen closed: what it asked of the intercom (panels, camera, picture wants) ends, and
    /// what other screens show plays on. Its calls go on (attached: the daemon's).
    func finish() async
}

extension IntercomLink {
    /// The intercom plays operator camera `id` (live, or its recording from `at`) for this screen;
    /// its pictures then come under the camera's id (`want`, `latest`). Throws the one line of an
    /// unknown or unplayable camera, or an operator not logged in, before the screen opens.
    public func watchCamera(id: String, at: Date?) async throws {
        _ = try await execute(.watchCamera(subscriber, camera: id, at: at))
    }
}

/// A picture of the call's video: `sequence` changes with it; `image` decodes it when drawn.
public struct CallPicture: Sendable {
    public var call: CallID?
    public var sequence: UInt64
    public var image: @Sendable () -> RGBImage?

    public init(call: CallID?, sequence: UInt64, image: @escaping @Sendable () -> RGBImage?) {
        self.call = call
        self.sequence = sequence
        self.image = image
    }
}
