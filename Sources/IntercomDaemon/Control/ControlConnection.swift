import Foundation
import IntercomEngine
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
    // Touched only from the handler task and `close`, under `lock`.
    private let lock = NSLock()
    private var tasks: [Task<Void, Never>] = []
    private var finished = false
    private var onClose: (@Sendable (Int) -> Void)?
    /// The picture subscriptions, by `PictureRequest.key`; a new request for a key replaces its task.
    private var pictures: [String: Task<Void, Never>] = [:]
    private let screens: AttachedScreens
    private let watched: WatchedPanels
    private let shares: ShareExpiryKeeper?
    private let peerPID: Int32?

    init(fd: Int32, number: Int, intercom: Intercom, logger: Logger, outboxLimit: Int,
         screens: AttachedScreens, watched: WatchedPanels, shares: ShareExpiryKeeper?, peerPID: Int32?, onClose: @escaping @Sendable (Int) -> Void) {
        self.socket = OwnedDescriptor(fd)
        self.number = number
        self.screens = screens
        self.watched = watched
        self.shares = shares
        self.peerPID = peerPID
        self.intercom = intercom
        self.logger = logger
        self.outbox = Outbox(limit: outboxLimit)
        self.onClose = onClose
    }

    /// Refuses the peer with one error line, then closes.
    func refuse(_ message: String) {
        _ = UnixSocket.writeAll(fd, Array((ControlReply.failure(id: .null, error: message).encoded + "\n").utf8))
        socket.close()
    }

    func start() {
        let (lines, continuation) = AsyncStream<String>.makeStream()
        let handler = Task { [self] in
            for await line in lines { await handle(line) }
        }
        keep(handler)
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
        let running = lock.withLock { () -> [Task<Void, Never>] in
            defer { tasks = []; pictures = [:]; finished = true }
            return tasks + pictures.values
        }
        for task in running { task.cancel() }
        socket.close()
        // A screen that went away (quit, killed, lost its terminal) takes only its subscriptions with it.
        for panel in screens.detach(number) { stopLive(panel) }
        Task { [watched, number] in await watched.remove(number) }
        let notify = lock.withLock { () -> (@Sendable (Int) -> Void)? in
            defer { onClose = nil }
            return onClose
        }
        notify?(number)
    }

    /// Remembers a task to cancel when the connection ends; cancels it at once if it already has.
    private func keep(_ task: Task<Void, Never>) {
        let late = lock.withLock { () -> Bool in
            if finished { return true }
            tasks.append(task)
            return false
        }
        if late { task.cancel() }
    }

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
            screens.attach(number, name: screen, pid: peerPID)
            logger.info("screen \(number) attached: \(screen)\(peerPID.map { ", pid \($0)" } ?? "")")
            send(ControlReply.success(id: request.id, data: .object([("screen", .integer(number))])))
            await stream(call: nil)
        case .picture(let picture):
            if case .panel(let panel) = picture.source {
                let names = await intercom.config.panels.map(\.name)
                guard names.contains(panel) else {
                    send(ControlReply.failure(id: request.id, error: "no panel '\(panel)'; known: \(names.joined(separator: ", "))"))
                    return
                }
            }
            subscribe(picture)
            send(ControlReply.success(id: request.id, data: .object([("frame", .string(picture.key))])))
        case .watchPanels(let panels, let fps):
            let names = await intercom.config.panels.map(\.name)
            if let unknown = panels.first(where: { !names.contains($0) }) {
                send(ControlReply.failure(id: request.id, error: "no panel '\(unknown)'; known: \(names.joined(separator: ", "))"))
                return
            }
            await watched.set(number, panels: panels, fps: fps)
            send(ControlReply.success(id: request.id, data: .object([("panels", .array(panels.map { .string($0) }))])))
        case .shareExpiry(let change):
            guard let shares else {
                send(ControlReply.failure(id: request.id, error: "this daemon keeps no ends of shared access"))
                return
            }
            if case .keep(let expiry) = change, await intercom.config.operator(named: expiry.operatorName) == nil {
                send(ControlReply.failure(id: request.id, error: "the daemon has no [operator \(expiry.operatorName)]; reload it (SIGHUP) after adding one"))
                return
            }
            do {
                send(ControlReply.success(id: request.id, data: try await shares.apply(change)))
            } catch {
                send(ControlReply.failure(id: request.id, error: "the end of the access was not kept: \(error)"))
            }
        case .events(let call):
            await stream(call: call)
        case .command(let command):
            do {
                let data = try await intercom.execute(command)
                send(ControlReply.success(id: request.id, data: command == .status ? screens.adding(to: data) : data))
            } catch let error as IntercomError {
                send(ControlReply.failure(id: request.id, error: error.description))
            } catch {
                send(ControlReply.failure(id: request.id, error: "\(error)"))
            }
        }
    }

    /// A `state` object, then every event (of `call` when set), until the connection ends.
    private func stream(call: CallID?) async {
        // Subscribe before reading the state, so no event falls between the two.
        let events = intercom.bus.subscribe()
        let state = screens.adding(to: await intercom.status)
        send(ControlReply.state(state, time: IntercomEvent.rfc3339(Date())))
        let task = Task { [self] in
            for await event in events {
                if let call, event.call?.id != call { continue }
                send(event.json)
                if outbox.isClosed { break }
            }
        }
        keep(task)
    }

    /// Starts, replaces or (width 0) ends a picture subscription.
    private func subscribe(_ picture: PictureRequest) {
        if case .panel(let panel) = picture.source {
            if !picture.stops { intercom.peephole.want(panel: panel, size: PixelSize(width: picture.width, height: picture.height),
                                                        live: picture.live) }
            if screens.look(number, panel: panel, live: picture.live && !picture.stops) { stopLive(panel) }
        }
        let pump = picture.stops ? nil : Task { [intercom, outbox] in
            await PicturePump(request: picture, intercom: intercom, outbox: outbox).run()
        }
        let old = lock.withLock { () -> Task<Void, Never>? in
            if finished { return nil }
            let old = pictures[picture.key]
            pictures[picture.key] = pump
            return old
        }
        old?.cancel()
        if lock.withLock({ finished }) { pump?.cancel() }
    }

    /// Nobody looks at the panel live any more: its stream stops, its stills go on for the journal.
    private func stopLive(_ panel: String) {
        let size = intercom.peephole.wantedSize(panel: panel) ?? PixelSize(width: 320, height: 240)
        intercom.peephole.want(panel: panel, size: size, live: false)
    }
}
