import Foundation
import IntercomCore
#if canImport(Glibc)
import Glibc
#endif
import IntercomBase
import IntercomImaging

/// One client of the control socket: a reader thread that splits request lines, a writer thread
/// that drains the client's bounded outbox, and a task that answers requests in order.
/// The descriptor is owned by `socket`: the reader closes it once both threads are done with it,
/// and every later `send` or `close` leaves it (and whatever reuses its number) alone.
final class ControlConnection: @unchecked Sendable {
    private let socket: OwnedDescriptor
    private var fd: Int32 { socket.fd }
    let number: Int
    private let intercom: Intercom
    private let logger: Logger
    private let outbox: Outbox
    private let writerDone = DispatchSemaphore(value: 0)
    // Under `lock`.
    private let lock = NSLock()
    private var onClose: (@Sendable (Int) -> Void)?
    /// The connection's tasks: the request handler, its event streams, and its picture
    /// subscriptions, one slot per `PictureRequest.key` (a new request for a key replaces its
    /// task). Ended when the connection ends; the server's `settle` awaits them.
    private let tasks: TaskOwner
    private let shared: ScreensShared
    private var screens: AttachedScreens { shared.screens }
    private let peerPID: Int32?
    /// The peer's user name (SO_PEERCRED uid), for who acted.
    private let peerUser: String?
    /// What the connection attached as (`tui`, `kiosk`, `watch`); nil: a `ctl` client. Under `lock`.
    private var attachedAs: String?
    /// Who holds this connection's frame subscriptions in the engine: its requests name none.
    private let subscriber: Subscriber

    init(fd: Int32, number: Int, intercom: Intercom, logger: Logger, outboxLimit: Int,
         shared: ScreensShared, peerPID: Int32?, peerUser: String? = nil, onClose: @escaping @Sendable (Int) -> Void) {
        self.socket = OwnedDescriptor(fd)
        self.number = number
        self.shared = shared
        self.peerPID = peerPID
        self.peerUser = peerUser
        self.intercom = intercom
        self.logger = logger
        self.outbox = Outbox(limit: outboxLimit)
        self.onClose = onClose
        self.tasks = TaskOwner("control connection \(number)")
        self.subscriber = Subscriber("control connection \(number)")
    }

    /// Refuses the peer with one error line, then closes.
    func refuse(_ message: String) {
        _ = UnixSocket.writeAll(fd, Array((ControlReply.failure(id: .null, error: message).encoded + "\n").utf8))
        socket.close()
    }

    func start() {
        let (lines, continuation) = AsyncStream<String>.makeStream()
        tasks.start { [self] in
            for await line in lines { await handle(line) }
            // The screen went away (quit, killed, lost its terminal): its tiles and cameras go
            // with it, once any request it had in flight is through (a `watch_panels` among them).
            _ = try? await intercom.execute(.unwatch(subscriber))
        }
        Thread { [self] in writeLoop() }.start()
        Thread { [self] in readLoop(continuation) }.start()
    }

    /// Sends a line; a full outbox drops the client.
    func send(_ value: JSONValue) {
        if !outbox.push(value.encoded) {
            if !outbox.isClosed { return }
            logger.warning("control client \(number) is not reading; dropping it")
            socket.shutdown()
        }
    }

    private func writeLoop() {
        while let line = outbox.pop() {
            if !UnixSocket.writeAll(fd, line) { break }
        }
        // Wakes the reader, which closes the descriptor once both threads are done with it.
        socket.shutdown()
        writerDone.signal()
    }

    private func readLoop(_ continuation: AsyncStream<String>.Continuation) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        reading: while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            pending += buffer[0..<n]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if !line.trimmingCharacters(in: .whitespaces).isEmpty { continuation.yield(line) }
            }
            if pending.count > 65536 {
                // No request is that long; this is not a control client.
                _ = outbox.push(ControlReply.failure(id: .null, error: "request line longer than 64 KiB").encoded)
                break reading
            }
        }
        continuation.finish()
        outbox.close()
        writerDone.wait()
        tasks.close()
        socket.close()
        // A screen that went away (quit, killed, lost its terminal) takes only its subscriptions with it.
        // Its picture wants go with its `unwatch` (the request task, above).
        screens.detach(number)
        let notify = lock.withLock { () -> (@Sendable (Int) -> Void)? in
            defer { onClose = nil }
            return onClose
        }
        notify?(number)
    }

    /// Returns once the connection's tasks have returned (cancelling them).
    func settle() async { await tasks.end() }

    /// Ends the connection from our side (daemon stopping).
    func close() {
        outbox.close()
        socket.shutdown()
    }

    private func handle(_ line: String) async {
        let request: ControlRequest
        switch ControlRequest.parse(line) {
        case .failure(let failure):
            send(ControlReply.failure(id: failure.id, error: failure.message))
            return
        case .success(let parsed):
            request = parsed
        }
        switch request.action {
        case .attach(let screen):
            screens.attach(number, name: screen, pid: peerPID, user: peerUser)
            lock.withLock { attachedAs = screen }
            logger.info("screen \(number) attached: \(screen)\(peerPID.map { ", pid \($0)" } ?? "")")
            // Who serves it, so a screen of another config goes no further (DaemonIdentity).
            send(ControlReply.success(id: request.id, data: .object([("screen", .integer(number)),
                                                                      ("daemon", await identity().json)])))
            await stream(call: nil)
        case .picture(let picture):
            // A panel's size and live-or-stills are the engine's, merged with every other face's;
            // the frames' carriage (the pump) is this connection's.
            if case .panel(let panel) = picture.source {
                do {
                    _ = try await intercom.execute(.picture(subscriber, panel: panel, want: picture.want))
                } catch {
                    send(ControlReply.failure(id: request.id, error: (error as? IntercomError)?.description ?? "\(error)"))
                    return
                }
            }
            subscribe(picture)
            send(ControlReply.success(id: request.id, data: .object([("frame", .string(picture.key))])))
        case .events(let call):
            await stream(call: call)
        case .command(let asked):
            // A subscription is this connection's, whoever the request claims (it names nobody).
            let command = asked.subscribed(as: subscriber)
            do {
                let data = try await intercom.execute(command, as: who)
                send(ControlReply.success(id: request.id, data: command == .status ? await statusAdding(to: data) : data))
            } catch let error as IntercomError {
                send(ControlReply.failure(id: request.id, error: error.description, code: error.exitCode))
            } catch {
                send(ControlReply.failure(id: request.id, error: "\(error)"))
            }
        }
    }

    /// Who this connection's commands come from: the screen it attached as (its number is the one
    /// `status` lists), else `ctl`; with the peer's user either way. Taken from the socket, never
    /// from the request, so no client can act in another face's name.
    var who: FaceIdentity {
        let screen = lock.withLock { attachedAs }
        return screen.map { FaceIdentity(.screen, screen: number, kind: $0, user: peerUser) } ?? FaceIdentity(.ctl, user: peerUser)
    }

    /// This daemon as it tells its screens: its pid, version and the config it serves (canonical).
    private func identity() async -> DaemonIdentity {
        DaemonIdentity(pid: getpid(), version: IntercomVersion.string,
                       config: DaemonIdentity.canonicalConfig(await intercom.config.path))
    }

    /// `status` with the attached screens and this daemon's identity (`daemon`) added.
    private func statusAdding(to data: JSONValue) async -> JSONValue {
        guard case .object(var fields) = screens.adding(to: data) else { return data }
        fields.append(("daemon", await identity().json))
        return .object(fields)
    }

    /// A `state` object, then every event (of `call` when set), until the connection ends.
    private func stream(call: CallID?) async {
        // Subscribe before reading the state, so no event falls between the two.
        let events = intercom.bus.subscribe()
        let state = screens.adding(to: await intercom.status)
        send(ControlReply.state(state, time: IntercomEvent.rfc3339(Date())))
        tasks.start { [self] in
            for await event in events {
                if let call, event.call?.id != call { continue }
                send(event.json)
                if outbox.isClosed { break }
            }
        }
    }

    /// Starts, replaces or (width 0) ends a picture subscription's pump (its want is the engine's).
    private func subscribe(_ picture: PictureRequest) {
        let slot = "picture \(picture.key)"
        if picture.stops {
            tasks.cancel(slot)
        } else {
            tasks.start(slot) { [intercom, outbox, shared] in
                await PicturePump(request: picture, intercom: intercom, outbox: outbox, shared: shared.pictures).run()
            }
        }
    }
}
