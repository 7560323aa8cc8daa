import Foundation
import IntercomBase
import IntercomImaging
import Synchronization

/// A screen attached to the user's daemon (the client side of attach): one control connection
/// carries its commands, the daemon's events and the pictures it subscribed to. A reader thread
/// sorts the lines: replies to the commands waiting for them, events to the screen's streams,
/// frames into one newest picture per panel (and one of the call's video). The daemon owns the
/// calls: when this screen quits or dies, the connection closes and only its subscriptions end.
///
/// When the daemon goes away (stopped, restarted, crashed) the screen stays: its calls end (they
/// were the daemon's), its mode says the daemon is away, and the reader thread attaches again on
/// `ReattachSchedule`'s waits, to a daemon serving the screen's config only, making again what the
/// screen asked of the old one (its panels, camera and pictures), so the same screen rings again.
public final class RemoteLink: IntercomLink, @unchecked Sendable {
    let path: String
    let screen: String
    let expected: ExpectedConfig
    let timeout: Duration
    private let writeLock = NSLock()
    let state: Mutex<LinkState>
    /// Wakes the reader from a wait between tries when the screen finishes.
    let wake = DispatchSemaphore(value: 0)
    /// The daemon's connection holds this screen's subscriptions: the requests name nobody.
    public let subscriber = Subscriber.sender
    /// Pictures a screen asks for again and again (every turn of its loop) go out once per change.
    static let panelFPS = 12.0
    static let videoFPS = 15.0

    struct LinkState {
        var client: ControlClient
        var daemon: DaemonIdentity?
        var schedule = ReattachSchedule<ContinuousClock.Instant>()
        /// A daemon that answered while away but serves another config.
        var other: DaemonIdentity?
        var nextID = 0
        var replies: [Int: CheckedContinuation<JSONValue, any Error>] = [:]
        var streams: [UUID: AsyncStream<IntercomEvent>.Continuation] = [:]
        var panels: [String] = []
        /// The calls of the latest `state`, and its site's reachability, told to each new event stream
        /// as the events that made them.
        var heardAtAttach: [IntercomEvent] = []
        /// The calls in progress as this screen heard of them: ended here when the daemon goes away.
        var calls: [CallID: IntercomEvent.CallRef] = [:]
        /// The subscriptions this screen made (`watch`, `watchCamera`), made again on a re-attach.
        var subscriptions: [(key: String, command: IntercomCommand)] = []
        var asked: [String: PictureRequest] = [:]
        var frames: [String: PeepholeFrame] = [:]
        /// Each panel's troubles as the daemon's last picture of it told them (`PictureLine.note`).
        var troubles: [String: (note: String?, problem: String?)] = [:]
        var video: CallPicture?
        var wakers: [UUID: @Sendable (String) -> Void] = [:]
        /// The screen finished: no more tries, the reader ends.
        var finishing = false
        var ended = false
        var endWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Attaches to the daemon on `path` as `screen` (`tui`, `kiosk`, `watch`); the daemon's reply
    /// and its `state` must come within `timeout`. With `config`, a daemon serving another config is
    /// refused (`AttachError.otherConfig`), now and on every re-attach.
    public init(path: String, screen: String, config: ExpectedConfig = .any, timeout: Duration = .seconds(2)) throws(AttachError) {
        self.path = path
        self.screen = screen
        self.expected = config
        self.timeout = timeout
        let attached = try Self.handshake(path: path, screen: screen, expected: config, timeout: timeout)
        var first = LinkState(client: attached.client)
        first.daemon = attached.daemon
        first.panels = Self.names(attached.state)
        first.heardAtAttach = Self.attachEvents(attached.state)
        for event in first.heardAtAttach { Self.track(event, in: &first.calls) }
        state = Mutex(first)
        let reader = Thread { [self] in run(attached.client) }
        reader.name = "intercom.attach"
        reader.start()
    }

    // MARK: - IntercomLink

    /// Attached (the daemon's pid, the one attached now), or away since the daemon went.
    public var mode: LinkMode {
        state.withLock { s in
            guard let away = s.schedule.away(at: .now) else { return .attached(pid: s.daemon?.pid ?? s.client.peerPID) }
            return .away(DaemonAway(seconds: Int(away.duration.components.seconds), long: away.long, other: s.other,
                                    config: expected.canonical))
        }
    }

    /// The daemon attached now (or last): its pid, version and config.
    public var daemon: DaemonIdentity? { state.withLock { $0.daemon } }

    public func events() -> AsyncStream<IntercomEvent> {
        let (stream, continuation) = AsyncStream<IntercomEvent>.makeStream()
        let id = UUID()
        let (known, ended) = state.withLock { s -> ([IntercomEvent], Bool) in
            if !s.ended { s.streams[id] = continuation }
            return (s.heardAtAttach, s.ended)
        }
        for event in known { continuation.yield(event) }
        if ended { continuation.finish() }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.streams.removeValue(forKey: id) } }
        return stream
    }

    public func prepare() async {}
    public func panels() async -> [String] { state.withLock { $0.panels } }

    public func execute(_ command: IntercomCommand) async throws -> JSONValue {
        let reply = try await request(.command(command))
        guard reply["ok"] == .bool(true) else {
            throw RemoteLinkError.refused(reply["error"]?.stringValue ?? "the daemon refused the command")
        }
        remember(command)
        return reply["data"] ?? .null
    }

    public func want(panel: String, size: PixelSize, live: Bool) {
        ask(PictureRequest(source: .panel(panel), width: size.width, height: size.height, fps: Self.panelFPS, live: live))
    }

    public func latest(panel: String) -> PeepholeFrame? { state.withLock { $0.frames[panel] } }
    public func problem(panel: String) -> String? { state.withLock { $0.troubles[panel]?.problem } }
    public func streamNote(panel: String) -> String? { state.withLock { $0.troubles[panel]?.note } }

    public func callVideo() -> CallPicture? {
        // Asked for the first time the screen looks; the daemon sends frames only while a call has video.
        ask(PictureRequest(source: .video, width: 1, height: 1, fps: Self.videoFPS))
        return state.withLock { $0.video }
    }

    public func addWaker(_ wake: @escaping @Sendable (String) -> Void) -> UUID {
        let id = UUID()
        state.withLock { $0.wakers[id] = wake }
        return id
    }

    public func removeWaker(_ id: UUID) { state.withLock { _ = $0.wakers.removeValue(forKey: id) } }

    /// Ends the attachment: the daemon drops this screen and its subscriptions; calls go on. A
    /// screen waiting for its daemon to come back stops waiting.
    public func detach() {
        let client = state.withLock { s in
            s.finishing = true
            return s.client
        }
        client.finishSending()
        wake.signal()
    }

    /// Detaches, and returns once the reader thread has ended (no try to attach outlives the screen).
    /// A daemon that does not close its side within `closeGrace` (stopped, hung) is not waited for.
    public func finish() async {
        detach()
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.readerEnded(); return true }
            group.addTask {
                do {
                    try await Task.sleep(for: Self.closeGrace)
                    return false
                } catch {
                    return true
                }
            }
            // The grace passed first: stop reading, so the reader returns.
            if await group.next() == false { state.withLock { $0.client }.shutdown() }
            group.cancelAll()
        }
    }

    static let closeGrace = Duration.seconds(1)

    private func readerEnded() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let ended = state.withLock { s in
                if !s.ended { s.endWaiters.append(done) }
                return s.ended
            }
            if ended { done.resume() }
        }
    }

    // MARK: - The wire

    func ask(_ picture: PictureRequest) {
        let changed = state.withLock { s -> Bool in
            guard s.asked[picture.key] != picture, !s.ended else { return false }
            s.asked[picture.key] = picture
            return true
        }
        if changed { try? write(ControlRequest(id: .null, action: .picture(picture))) }
    }

    func write(_ request: ControlRequest, on given: ControlClient? = nil) throws(ControlError) {
        let client = given ?? state.withLock { $0.client }
        writeLock.lock()
        defer { writeLock.unlock() }
        try client.send(request)
    }

    private func request(_ action: ControlRequest.Action) async throws -> JSONValue {
        try await withCheckedThrowingContinuation { (reply: CheckedContinuation<JSONValue, any Error>) in
            let id = state.withLock { s -> Result<Int, RemoteLinkError> in
                guard !s.ended else { return .failure(.detached) }
                guard s.schedule.awaySince == nil else { return .failure(.away) }
                s.nextID += 1
                s.replies[s.nextID] = reply
                return .success(s.nextID)
            }
            switch id {
            case .failure(let error):
                reply.resume(throwing: error)
            case .success(let id):
                do {
                    try write(ControlRequest(id: .integer(id), action: action))
                } catch {
                    state.withLock { $0.replies.removeValue(forKey: id) }?.resume(throwing: RemoteLinkError.away)
                }
            }
        }
    }

    /// Reads `client` until the daemon closes it: replies, events and pictures.
    func read(_ client: ControlClient) {
        while let line = client.readLine() {
            if let picture = PictureLine(line: line) {
                take(picture)
                continue
            }
            guard let value = JSONValue.parse(line) else { continue }
            if value["reply"] == .bool(true) {
                guard case .integer(let id)? = value["id"] else { continue }
                state.withLock { $0.replies.removeValue(forKey: id) }?.resume(returning: value)
            } else if let event = IntercomEvent(json: value) {
                let streams = state.withLock { s in
                    Self.track(event, in: &s.calls)
                    return Array(s.streams.values)
                }
                for stream in streams { stream.yield(event) }
            }
        }
    }

    private func take(_ line: PictureLine) {
        if line.kind == "video" {
            let jpeg = line.jpeg
            let picture = CallPicture(call: line.call.map(CallID.init), sequence: UInt64(line.sequence)) { try? JPEG.decode(jpeg) }
            state.withLock { $0.video = picture }
            return
        }
        guard line.key.hasPrefix("panel:"), let image = try? JPEG.decode(line.jpeg) else { return }
        let panel = String(line.key.dropFirst("panel:".count))
        let frame = PeepholeFrame(panel: panel, call: line.call.map(CallID.init), jpeg: line.kind == "snapshot" ? line.jpeg : nil,
                                  image: image, sequence: line.sequence, fetchedAt: Date(),
                                  kind: PeepholeFrame.Kind(rawValue: line.kind) ?? .snapshot)
        let wakers = state.withLock { s in
            s.frames[panel] = frame
            s.troubles[panel] = line.note == nil && line.problem == nil ? nil : (line.note, line.problem)
            return Array(s.wakers.values)
        }
        for wake in wakers { wake(panel) }
    }
}

/// Why a command of an attached screen did not run.
public enum RemoteLinkError: Error, CustomStringConvertible {
    case refused(String)
    /// The screen has left the daemon (it is closing).
    case detached
    /// The daemon went away; the screen attaches again by itself.
    case away

    public var description: String {
        switch self {
        case .refused(let line): line
        case .detached: "the screen has left the daemon; restart it ('intercom tui') to attach again"
        case .away: "the daemon is away: nothing to do this with until it is back (the screen attaches again by itself)"
        }
    }
}
