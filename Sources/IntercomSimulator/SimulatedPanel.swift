import Foundation
import IntercomImaging
import IntercomPhone
import Synchronization
import IntercomBase

/// A whole simulated Beward panel on loopback: the HTTP CGI server plus a SIP phone that rings a
/// client the way a panel does (From `sip:100001@…`, PCMA + H.264, the porch scene as video) and
/// opens doors on RFC 2833 digits, for `intercom demo`, `intercom simulate-panel` and tests; with
/// `options.rtspPort` set, also its camera over RTSP (`rtsp`).
///
/// Door openings by HTTP and by DTMF go through the same channel: `http.doorEvents()` and
/// `events` report both. Call `stop()` when done.
public final class SimulatedPanel: Sendable {
    public let http: SimulatedPanelHTTPServer
    /// The camera's main and sub streams; nil unless `options.rtspPort` asked for them.
    public let rtsp: SimulatedPanelRTSPServer?
    public let phone: Phone
    public let sip: SimulatedPanelSIPOptions
    /// Everything that happens at the panel; one consumer.
    public let events: AsyncStream<SimulatedPanelEvent>
    /// The JPEG the phone sends as its camera (rewritten with a fresh scene before each call).
    public let scenePath: String

    private struct State {
        var calls: Set<CallID> = []
        var answered: Set<CallID> = []
        var reportedRinging: Set<CallID> = []
        /// Calls the panel cancelled because nobody answered in time.
        var gaveUp: Set<CallID> = []
        /// Calls already ended, so a late `ring` bookkeeping step cannot revive one.
        var finished: Set<CallID> = []
        var digits: DoorDigitFilter
        var stopped = false
        var tasks: [Task<Void, Never>] = []
    }

    private let state: Mutex<State>
    private let sink: AsyncStream<SimulatedPanelEvent>.Continuation
    private let ownsDataDirectory: Bool
    private let dataDirectory: String
    /// Says when the panel could not do what a real one does (answer a live view, decline a second caller).
    private let logger: Logger

    private init(http: SimulatedPanelHTTPServer, rtsp: SimulatedPanelRTSPServer?, phone: Phone,
                 sip: SimulatedPanelSIPOptions, scenePath: String, dataDirectory: String, ownsDataDirectory: Bool,
                 logger: Logger) {
        self.logger = logger
        self.http = http
        self.rtsp = rtsp
        self.phone = phone
        self.sip = sip
        self.scenePath = scenePath
        self.dataDirectory = dataDirectory
        self.ownsDataDirectory = ownsDataDirectory
        let (events, sink) = AsyncStream<SimulatedPanelEvent>.makeStream(bufferingPolicy: .unbounded)
        self.events = events
        self.sink = sink
        self.state = Mutex(State(digits: DoorDigitFilter(window: sip.repeatWindow)))
    }

    /// Starts the RTSP camera (`options.rtspPort`, when set), the HTTP server (`options.port`, 0 = any) and
    /// the SIP phone (`sip.listen`). Throws `SimulatorError.cannotStartRTSP`/`.cannotStart` for a taken
    /// RTSP/HTTP port and `PhoneError` (`.portInUse`…) for SIP.
    public static func start(options: SimulatedPanelOptions = .init(), sip: SimulatedPanelSIPOptions = .init(),
                             logger: Logger = .silent) async throws -> SimulatedPanel {
        var options = options
        let rtsp = try options.rtspPort.map { port throws(SimulatorError) in
            try SimulatedPanelRTSPServer.start(port: port, user: options.user, password: options.password,
                                               auth: options.auth)
        }
        // rtsp_cgi answers the port actually bound.
        options.rtspPort = rtsp?.port
        // sip_cgi answers the account the phone calls from.
        options.sipUser = options.sipUser ?? sip.user
        let http = SimulatedPanelHTTPServer(options: options)
        do {
            try http.start()
        } catch {
            rtsp?.stop()
            throw error
        }
        let owns = sip.dataDirectory == nil
        let directory: String
        do {
            // Private (mkdtemp, 0700): the phone's plugin folder goes in it.
            directory = try sip.dataDirectory ?? PrivateTemporaryDirectory.make(prefix: "intercom-simulated-panel").path
        } catch {
            http.stop()
            rtsp?.stop()
            throw error
        }
        let scene = (directory as NSString).appendingPathComponent("scene.jpg")
        let phone: Phone
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try writeScene(to: scene, frame: http.core.nextFrame())
            let settings = PhoneSettings(
                listen: [sip.listen], dataDirectory: directory, user: sip.user, displayName: sip.displayName,
                incomingTimeoutSeconds: 60, audio: sip.audio,
                video: .sendPicture(path: scene, fps: sip.videoFPS),
                audioCodecs: sip.audioCodecs, videoCodecs: sip.videoCodecs)
            phone = try await Phone.start(settings, logger: logger)
        } catch {
            http.stop()
            rtsp?.stop()
            if owns { try? FileManager.default.removeItem(atPath: directory) }
            throw error
        }
        let panel = SimulatedPanel(http: http, rtsp: rtsp, phone: phone, sip: sip, scenePath: scene,
                                   dataDirectory: directory, ownsDataDirectory: owns, logger: logger)
        panel.listen()
        return panel
    }

    /// Where the SIP side listens (port 0 resolved).
    public var sipListening: ListenAddress { phone.listening.first ?? sip.listen }

    /// The panel's own SIP URI, what a client sees as From: `sip:100001@127.0.0.1`.
    public var sipURI: String {
        let host = sip.listen.host.contains(":") ? "[\(sip.listen.host)]" : sip.listen.host
        let shown = host == "0.0.0.0" || host == "[::]" ? "127.0.0.1" : host
        return "sip:\(sip.user)@\(shown)"
    }

    /// Calls in progress (placed or answered, not yet ended).
    public var activeCalls: Set<CallID> { state.withLock { $0.calls } }

    /// Rings `uri` (`sip:user@host:port`) with a fresh scene as video; one call at a time.
    /// Unanswered after `sip.ringTimeout`, the panel cancels and reports `ended(reason: .missed)`.
    @discardableResult
    public func ring(_ uri: String, video: Bool = true) async throws -> CallID {
        if let busy = state.withLock({ $0.calls.first }) {
            throw PhoneError.wrongState(busy, "the simulated panel is already in a call; hang up first")
        }
        try? Self.writeScene(to: scenePath, frame: http.core.nextFrame())
        let id = try await phone.call(uri, video: video)
        state.withLock { s in
            if !s.finished.contains(id) { s.calls.insert(id) }
            s.digits.reset()
        }
        if let timeout = sip.ringTimeout {
            let task = Task { [weak self] in
                try? await Task.sleep(for: timeout)
                guard let self, !Task.isCancelled else { return }
                let unanswered = self.state.withLock { s in
                    guard s.calls.contains(id), !s.answered.contains(id) else { return false }
                    s.gaveUp.insert(id)
                    return true
                }
                if unanswered { try? await self.phone.hangup(id) }
            }
            state.withLock { $0.tasks.append(task) }
        }
        return id
    }

    /// Ends every call in progress (CANCEL while ringing, BYE once answered).
    public func hangup() async {
        for id in activeCalls {
            try? await phone.hangup(id)
        }
    }

    /// Hangs up, stops the phone and the HTTP server, and finishes `events`. Safe to call twice.
    public func stop() async {
        let tasks: [Task<Void, Never>]? = state.withLock { s in
            guard !s.stopped else { return nil }
            s.stopped = true
            return s.tasks
        }
        guard let tasks else { return }
        await hangup()
        await phone.stop()
        // The phone's events have finished: the listener drains them (call endings included) and ends.
        for task in tasks { task.cancel() }
        http.stop()
        rtsp?.stop()
        http.core.finishDoorWatchers()
        for task in tasks { await task.value }
        sink.finish()
        if ownsDataDirectory { try? FileManager.default.removeItem(atPath: dataDirectory) }
    }

    // MARK: - Inside

    private func listen() {
        // Subscribe before returning, so no opening is lost between start and the first await.
        let doors = http.doorEvents()
        let sink = self.sink
        let doorTask = Task {
            for await door in doors { sink.yield(.doorOpened(door)) }
        }
        let phoneEvents = phone.events
        let callTask = Task { [weak self] in
            for await event in phoneEvents {
                guard let self else { return }
                await self.handle(event)
            }
        }
        state.withLock { $0.tasks += [callTask, doorTask] }
    }

    private func handle(_ event: PhoneEvent) async {
        switch event {
        case .outgoing(let info):
            state.withLock { s in
                if !s.finished.contains(info.id) { s.calls.insert(info.id) }
            }
            sink.yield(.calling(info.id, to: info.to))
        case .ringing(let id):
            let first = state.withLock { $0.reportedRinging.insert(id).inserted }
            if first { sink.yield(.ringing(id)) }
        case .incoming(let info):
            sink.yield(.incoming(info.id, from: info.from))
            if sip.answersIncomingCalls, state.withLock({ $0.calls.isEmpty }) {
                state.withLock { s in
                    s.calls.insert(info.id)
                    s.digits.reset()
                }
                do {
                    try await phone.answer(info.id, video: true)
                } catch {
                    // The caller would ring on unanswered: a test waiting for the call says why.
                    logger.error("simulated panel \(sip.user): could not answer \(info.from): \(error)")
                }
            } else {
                do {
                    try await phone.decline(info.id, reason: .busy)
                } catch {
                    logger.error("simulated panel \(sip.user): could not decline \(info.from) as busy: \(error)")
                }
            }
        case .established(let id, let media):
            state.withLock { _ = $0.answered.insert(id) }
            sink.yield(.answered(id, media))
        case .dtmfReceived(let id, let digit):
            sink.yield(.dtmf(id, digit))
            guard let door = sip.door(forDigit: digit) else { return }
            let opens = state.withLock { $0.digits.accept(door) }
            if opens { http.core.doorOpened(door, method: "dtmf") }
        case .ended(let id, let reason, let duration, _):
            let gaveUp = state.withLock { s in
                s.calls.remove(id)
                s.finished.insert(id)
                s.answered.remove(id)
                s.reportedRinging.remove(id)
                return s.gaveUp.remove(id) != nil
            }
            sink.yield(.ended(id, reason: gaveUp ? .missed : reason, duration: duration))
        default:
            break
        }
    }

    /// Renders the porch scene and writes it as the JPEG the phone's static-picture camera sends.
    static func writeScene(to path: String, frame: Int) throws {
        let image = SyntheticFrame.render(frame: frame, label: "DKS SIM", time: SimulatorCore.clockText())
        let jpeg = try JPEG.encode(image, quality: 85)
        try jpeg.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
