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
    /// The daemon's connection holds this screen's subscriptions: the requests name nobody.
    public let subscriber = Subscriber.sender
    /// Pictures a screen asks for again and again (every turn of its loop) go out once per change.
    static let panelFPS = 12.0
    static let videoFPS = 15.0

    struct LinkState {
        var nextID = 0
        var replies: [Int: CheckedContinuation<JSONValue, any Error>] = [:]
        var streams: [UUID: AsyncStream<IntercomEvent>.Continuation] = [:]
        var panels: [String] = []
        /// The calls of the first `state`, told to each new event stream as the events that made them.
        var callsAtAttach: [IntercomEvent] = []
        var asked: [String: PictureRequest] = [:]
        var frames: [String: PeepholeFrame] = [:]
        /// Each panel's troubles as the daemon's last picture of it told them (`PictureLine.note`).
        var troubles: [String: (note: String?, problem: String?)] = [:]
        var video: CallPicture?
        var wakers: [UUID: @Sendable (String) -> Void] = [:]
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

    /// Ends the attachment: the daemon drops this screen and its subscriptions; calls go on.
    public func detach() { client.finishSending() }

    /// Detaches: the daemon's connection is what holds this screen's subscriptions and picture wants.
    public func finish() async { detach() }

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
