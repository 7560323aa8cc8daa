import Foundation
import IntercomBase
import IntercomModel
import IntercomImaging
import Synchronization

/// A screen attached to the user's daemon (the client side of attach): one control connection
/// carries its commands, the daemon's events and the pictures it subscribed to. A reader thread
/// sorts the lines: replies to the commands waiting for them, events to the screen's streams,
/// frames into one newest picture per panel (and one of the call's video). The daemon owns the
/// calls: when this screen quits or dies, the connection closes and only its subscriptions end.
public final class RemoteLink: IntercomLink, @unchecked Sendable {
    public let mode: LinkMode
    private let client: ControlClient
    private let writeLock = NSLock()
    private let state = Mutex(LinkState())
    /// The link's own task (the door list asked again), ended with the link.
    private let tasks = TaskOwner("attach link")
    /// Pictures a screen asks for again and again (every turn of its loop) go out once per change.
    static let panelFPS = 12.0
    static let videoFPS = 15.0
    /// How often the door list is asked again (operators' doors come after the daemon starts).
    static let doorRefresh: TimeInterval = 10

    struct LinkState {
        var nextID = 0
        var replies: [Int: CheckedContinuation<JSONValue, any Error>] = [:]
        var streams: [UUID: AsyncStream<IntercomEvent>.Continuation] = [:]
        var panels: [String] = []
        var doors: [DoorListing] = []
        var doorsAsked = Date()
        /// The calls of the first `state`, told to each new event stream as the events that made them.
        var callsAtAttach: [IntercomEvent] = []
        var asked: [String: PictureRequest] = [:]
        var frames: [String: PeepholeFrame] = [:]
        /// Each panel's troubles as the daemon's last picture of it told them (`PictureLine.note`).
        var troubles: [String: (note: String?, problem: String?)] = [:]
        var video: CallPicture?
        var wakers: [UUID: @Sendable (String) -> Void] = [:]
        /// The operator camera the daemon plays for this screen (`watch OPERATOR:cam:ID`).
        var camera: String?
        var ended = false
    }

    /// Attaches to the daemon on `path` as `screen` (`tui`, `kiosk`, `watch`); the daemon's reply
    /// and its `state` must come within `timeout`.
    public init(path: String, screen: String, timeout: Duration = .seconds(2)) throws(ControlError) {
        client = try ControlClient(path: path, timeout: timeout)
        mode = .attached(pid: client.peerPID)
        let deadline = ContinuousClock.now.advanced(by: timeout)
        try client.send(ControlRequest(id: .string("attach"), action: .attach(screen: screen)))
        var first: JSONValue?
        while first == nil, let line = try client.readLine(until: deadline) {
            guard let value = JSONValue.parse(line) else { throw .badReply(line) }
            if value["reply"] == .bool(true), value["ok"] == .bool(false) {
                throw .badReply(value["error"]?.stringValue ?? line)
            }
            if value["event"]?.stringValue == "state" { first = value }
        }
        guard let first else { throw .closed }
        state.withLock { s in
            s.panels = Self.names(first)
            s.doors = Self.doors(first)
            s.callsAtAttach = Self.callEvents(first)
        }
        let reader = Thread { [self] in readLoop() }
        reader.name = "intercom.attach"
        reader.start()
    }

    // MARK: - IntercomLink

    public func events() -> AsyncStream<IntercomEvent> {
        let (stream, continuation) = AsyncStream<IntercomEvent>.makeStream()
        let id = UUID()
        let (known, ended) = state.withLock { s -> ([IntercomEvent], Bool) in
            if !s.ended { s.streams[id] = continuation }
            return (s.callsAtAttach, s.ended)
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
        return reply["data"] ?? .null
    }

    public func doorList(panels: [String]) -> [DoorListing] {
        let (doors, refresh) = state.withLock { s -> ([DoorListing], Bool) in
            let due = Date().timeIntervalSince(s.doorsAsked) > Self.doorRefresh
            if due { s.doorsAsked = Date() }
            return (s.doors, due)
        }
        if refresh {
            tasks.start("door refresh") { [weak self] in
                guard let status = try? await self?.execute(.status) else { return }
                self?.state.withLock { $0.doors = Self.doors(status) }
            }
        }
        return doors
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

    /// The kiosk's panels: the daemon watches them with every other screen's (their sub streams where
    /// a tile wants them live). `fullSize` and `live` are the daemon's to choose.
    /// `watch` asks for the main stream and whole snapshots (`live: .main`), the kiosk for sub streams.
    public func watch(panels: [String], fps: Double, fullSize: Bool, live: LiveStreamChoice?) async {
        // The camera this screen shows is the daemon's to play (`watchCamera(id:at:)`), not a panel.
        let camera = state.withLock { $0.camera }
        let shown = panels.filter { $0 != camera }
        _ = try? await request(.watchPanels(shown, fps: min(30, max(0.2, fps)), whole: live == .main))
        if panels.isEmpty, camera != nil { _ = try? await request(.watchCamera(nil)) }
    }

    /// The daemon plays operator camera `id` (live, or its recording from `at`) for this screen; its
    /// pictures then come as the camera's id's (`want`, `latest`). Throws the daemon's one line
    /// (an unknown camera, an operator not logged in) before the screen opens.
    public func watchCamera(id: String, at: Date?) async throws {
        state.withLock { $0.camera = id }
        let reply = try await request(.watchCamera(id, at: at))
        guard reply["ok"] == .bool(true) else {
            state.withLock { $0.camera = nil }
            throw RemoteLinkError.refused(reply["error"]?.stringValue ?? "the daemon cannot play camera \(id)")
        }
    }

    /// Ends the attachment: the daemon drops this screen and its subscriptions; calls go on.
    public func detach() { client.finishSending() }

    // MARK: - The wire

    private func ask(_ picture: PictureRequest) {
        let changed = state.withLock { s -> Bool in
            guard s.asked[picture.key] != picture, !s.ended else { return false }
            s.asked[picture.key] = picture
            return true
        }
        if changed { try? write(ControlRequest(id: .null, action: .picture(picture))) }
    }

    private func write(_ request: ControlRequest) throws(ControlError) {
        writeLock.lock()
        defer { writeLock.unlock() }
        try client.send(request)
    }

    private func request(_ action: ControlRequest.Action) async throws -> JSONValue {
        try await withCheckedThrowingContinuation { (reply: CheckedContinuation<JSONValue, any Error>) in
            let id = state.withLock { s -> Int? in
                guard !s.ended else { return nil }
                s.nextID += 1
                s.replies[s.nextID] = reply
                return s.nextID
            }
            guard let id else { return reply.resume(throwing: RemoteLinkError.detached) }
            do {
                try write(ControlRequest(id: .integer(id), action: action))
            } catch {
                state.withLock { $0.replies.removeValue(forKey: id) }?.resume(throwing: RemoteLinkError.detached)
            }
        }
    }

    private func readLoop() {
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
                for stream in state.withLock({ Array($0.streams.values) }) { stream.yield(event) }
            }
        }
        // The daemon stopped (or dropped us): commands fail, the screen's streams end.
        let (replies, streams) = state.withLock { s in
            s.ended = true
            defer { (s.replies, s.streams) = ([:], [:]) }
            return (Array(s.replies.values), Array(s.streams.values))
        }
        for reply in replies { reply.resume(throwing: RemoteLinkError.detached) }
        for stream in streams { stream.finish() }
        tasks.close()
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

    // MARK: - The state object

    static func names(_ state: JSONValue) -> [String] {
        guard case .array(let panels)? = state["panels"] else { return [] }
        return panels.compactMap { $0["name"]?.stringValue }
    }

    static func doors(_ state: JSONValue) -> [DoorListing] {
        guard case .array(let doors)? = state["doors"] else { return [] }
        return doors.compactMap(DoorListing.init(json:))
    }

    /// The calls in progress at attach, as the events a screen that saw them start would have had.
    static func callEvents(_ state: JSONValue) -> [IntercomEvent] {
        guard case .array(let calls)? = state["calls"] else { return [] }
        return calls.flatMap { call -> [IntercomEvent] in
            guard let id = call["call"]?.stringValue, let stage = call["state"]?.stringValue else { return [] }
            let ref = IntercomEvent.CallRef(id: CallID(id), panel: call["panel"]?.stringValue, from: call["from"]?.stringValue ?? "")
            let since = call["since"]?.stringValue.flatMap(RFC3339.date) ?? Date()
            if stage == "dialing" { return [IntercomEvent(.callOutgoing(ref, to: ref.from), time: since)] }
            var events = [IntercomEvent(.callIncoming(ref), time: since)]
            if stage == "active" { events.append(IntercomEvent(.callAnswered(ref, by: .user), time: since)) }
            return events
        }
    }
}

/// Why a command of an attached screen did not run.
public enum RemoteLinkError: Error, CustomStringConvertible {
    case refused(String)
    case detached

    public var description: String {
        switch self {
        case .refused(let line): line
        case .detached: "the daemon went away; restart the screen ('intercom tui') to attach again or run its own engine"
        }
    }
}
