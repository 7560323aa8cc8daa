import Foundation
import IntercomBase

/// The config a screen attaches for: a daemon serving another is not its daemon.
public enum ExpectedConfig: Sendable, Equatable {
    /// Whatever the daemon serves (tests, a daemon's own tools).
    case any
    /// The screen's config file (nil: the built-in defaults, no file).
    case file(String?)

    /// The screen's config, canonical (`DaemonIdentity.canonicalConfig`).
    var canonical: String? {
        if case .file(let path) = self { DaemonIdentity.canonicalConfig(path) } else { nil }
    }

    /// Whether `daemon` is this screen's. A daemon too old to say which config it serves is taken.
    func accepts(_ daemon: DaemonIdentity?) -> Bool {
        guard case .file(let path) = self, let daemon else { return true }
        return daemon.serves(config: path)
    }
}

/// Why a screen did not attach.
public enum AttachError: Error, CustomStringConvertible {
    case control(ControlError)
    /// The daemon on the socket serves another config than the screen's.
    case otherConfig(DaemonIdentity, screen: String?)

    public var description: String {
        switch self {
        case .control(let error): error.description
        case .otherConfig(let daemon, let screen):
            "this user's daemon (\(daemon.serving)) serves another config than this screen's (\(screen ?? "the built-in defaults"))"
        }
    }

    public var exitCode: Int32 {
        switch self {
        case .control(let error): error.exitCode
        // 69, "unavailable", as ControlError says of a daemon that is not ours to use.
        case .otherConfig: 69
        }
    }
}

extension RemoteLink {
    struct Attached {
        var client: ControlClient
        var daemon: DaemonIdentity?
        var state: JSONValue
    }

    /// Connects, attaches as `screen` and reads the daemon's reply (who it is) and its first `state`.
    static func handshake(path: String, screen: String, expected: ExpectedConfig,
                          timeout: Duration) throws(AttachError) -> Attached {
        do {
            let client = try ControlClient(path: path, timeout: timeout)
            let deadline = ContinuousClock.now.advanced(by: timeout)
            try client.send(ControlRequest(id: .string("attach"), action: .attach(screen: screen)))
            var daemon: DaemonIdentity?
            while let line = try client.readLine(until: deadline) {
                guard let value = JSONValue.parse(line) else { throw ControlError.badReply(line) }
                if value["reply"] == .bool(true), value["ok"] == .bool(false) {
                    throw ControlError.badReply(value["error"]?.stringValue ?? line)
                }
                if value["reply"] == .bool(true), value["id"] == .string("attach") {
                    daemon = DaemonIdentity(json: value["data"]?["daemon"], peerPID: client.peerPID)
                    if let daemon, !expected.accepts(daemon) {
                        // Not this screen's daemon: leave before its state and events come.
                        client.finishSending()
                        throw AttachError.otherConfig(daemon, screen: expected.canonical)
                    }
                }
                if value["event"]?.stringValue == "state" { return Attached(client: client, daemon: daemon, state: value) }
            }
            throw ControlError.closed
        } catch let error as AttachError {
            throw error
        } catch let error as ControlError {
            throw .control(error)
        } catch {
            throw .control(.closed)
        }
    }

    /// The reader thread: reads the daemon's lines; when it goes away, ends the screen's calls and
    /// attaches again on the schedule's waits, until the screen finishes.
    func run(_ first: ControlClient) {
        var client = first
        while true {
            read(client)
            guard let next = reattach() else { break }
            client = next
        }
        // The screen finished: commands fail, the screen's streams end, `finish` returns.
        let (replies, streams, waiters) = state.withLock { s in
            s.ended = true
            defer { (s.replies, s.streams, s.endWaiters) = ([:], [:], []) }
            return (Array(s.replies.values), Array(s.streams.values), s.endWaiters)
        }
        for reply in replies { reply.resume(throwing: RemoteLinkError.detached) }
        for stream in streams { stream.finish() }
        for waiter in waiters { waiter.resume() }
    }

    /// After the daemon closed the connection: the new one, or nil once the screen finished.
    private func reattach() -> ControlClient? {
        let gone = state.withLock { s -> (wait: Duration, replies: [CheckedContinuation<JSONValue, any Error>],
                                          calls: [IntercomEvent.CallRef], streams: [AsyncStream<IntercomEvent>.Continuation])? in
            guard !s.finishing else { return nil }
            let wait = s.schedule.wentAway(at: .now)
            // The panels' last pictures stay (stills, under the away line); the call's video went with the call.
            defer { (s.replies, s.calls, s.heardAtAttach, s.troubles, s.video) = ([:], [:], [], [:], nil) }
            return (wait, Array(s.replies.values), Array(s.calls.values), Array(s.streams.values))
        }
        guard let gone else { return nil }
        for reply in gone.replies { reply.resume(throwing: RemoteLinkError.away) }
        // The calls were the daemon's: they ended with it, and the screen says so instead of ringing on.
        for call in gone.calls {
            let ended = IntercomEvent(.callEnded(call, reason: .error, durationSeconds: 0))
            for stream in gone.streams { stream.yield(ended) }
        }
        var wait = gone.wait
        wakeScreens()
        while true {
            _ = wake.wait(timeout: .now() + Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18)
            if state.withLock({ $0.finishing }) { return nil }
            do {
                let attached = try Self.handshake(path: path, screen: screen, expected: expected, timeout: timeout)
                return resume(attached)
            } catch {
                let other: DaemonIdentity? = if case .otherConfig(let daemon, _) = error { daemon } else { nil }
                wait = state.withLock { s in
                    s.other = other
                    return s.schedule.failed()
                }
            }
        }
    }

    /// Attached again: what the screen asked of the old daemon is asked of this one, and the calls
    /// it has now reach the screen as the events that made them.
    private func resume(_ attached: Attached) -> ControlClient? {
        let known = Self.attachEvents(attached.state)
        let (finishing, subscriptions, pictures, streams) = state.withLock { s in
            s.client = attached.client
            s.daemon = attached.daemon
            s.other = nil
            s.schedule.attached()
            s.panels = Self.names(attached.state)
            s.heardAtAttach = known
            for event in known { Self.track(event, in: &s.calls) }
            return (s.finishing, s.subscriptions.map(\.command), Array(s.asked.values), Array(s.streams.values))
        }
        if finishing {
            attached.client.finishSending()
            return attached.client
        }
        // No reply is awaited (id null): a refused one leaves the screen as it would be on a fresh start.
        for command in subscriptions { try? write(ControlRequest(id: .null, action: .command(command)), on: attached.client) }
        for picture in pictures where !picture.stops {
            try? write(ControlRequest(id: .null, action: .picture(picture)), on: attached.client)
        }
        for event in known { for stream in streams { stream.yield(event) } }
        wakeScreens()
        return attached.client
    }

    private func wakeScreens() {
        for wake in state.withLock({ Array($0.wakers.values) }) { wake("") }
    }

    /// Keeps the subscriptions the screen made, to make them again on a re-attach.
    func remember(_ command: IntercomCommand) {
        let key: String
        switch command {
        case .watch: key = "watch"
        case .watchCamera: key = "camera"
        case .picture(_, let panel, _): key = "picture \(panel)"
        case .unwatch:
            state.withLock { $0.subscriptions = [] }
            return
        default: return
        }
        state.withLock { s in
            if let index = s.subscriptions.firstIndex(where: { $0.key == key }) {
                s.subscriptions[index].command = command
            } else {
                s.subscriptions.append((key, command))
            }
        }
    }

    /// Follows the calls in progress through their events.
    static func track(_ event: IntercomEvent, in calls: inout [CallID: IntercomEvent.CallRef]) {
        switch event.kind {
        case .callIncoming(let ref), .callOutgoing(let ref, _): calls[ref.id] = ref
        case .callEnded(let ref, _, _): calls.removeValue(forKey: ref.id)
        default: break
        }
    }

    // MARK: - The state object

    static func names(_ state: JSONValue) -> [String] { IntercomStatus(json: state).panels.map(\.name) }

    /// What a screen attaching now must know, as the events that made it: the calls in progress,
    /// then whether the site's store answers.
    static func attachEvents(_ state: JSONValue) -> [IntercomEvent] { callEvents(state) + siteEvents(state) }

    /// The site's reachability at attach (`site.reachable`, the `site` object of `ctl status`): a
    /// screen attached during an outage says "site unreachable" at once, not from the next
    /// `site_unreachable` (said once per outage, maybe long before); a re-attach to a daemon whose
    /// store answers puts the title back. A daemon without a site (no `site` object) has no store to
    /// miss: told as reachable, so a screen re-attached to it after a restart without `[site]` drops
    /// the old daemon's "site unreachable" (a screen that never heard one adds nothing).
    static func siteEvents(_ state: JSONValue) -> [IntercomEvent] {
        let time = state["time"]?.stringValue.flatMap(RFC3339.date) ?? Date()
        guard let site = state["site"], site != .null else { return [IntercomEvent(.siteReachable(replayed: 0), time: time)] }
        guard let reachable = site["reachable"]?.boolValue else { return [] }
        let kind: IntercomEvent.Kind = reachable ? .siteReachable(replayed: 0) : .siteUnreachable(error: site["error"]?.stringValue ?? "")
        return [IntercomEvent(kind, time: time)]
    }

    /// The calls in progress at attach, as the events a screen that saw them start would have had.
    static func callEvents(_ state: JSONValue) -> [IntercomEvent] {
        IntercomStatus(json: state).calls.flatMap { call -> [IntercomEvent] in
            let ref = IntercomEvent.CallRef(id: call.call, panel: call.panel, from: call.from)
            switch call.state {
            case .dialing: return [IntercomEvent(.callOutgoing(ref, to: ref.from), time: call.since)]
            case .ringing, .answering: return [IntercomEvent(.callIncoming(ref), time: call.since)]
            case .active: return [IntercomEvent(.callIncoming(ref), time: call.since), IntercomEvent(.callAnswered(ref, by: .user), time: call.since)]
            }
        }
    }
}
