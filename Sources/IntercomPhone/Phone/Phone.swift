import CLinphone
import Foundation
import IntercomBase

/// The SIP phone. Its liblinphone core lives on the process's linphone thread; every request
/// here is a message to that thread, and everything the core reports comes back as `events`.
/// Frames of call video arrive through `video`.
public final class Phone: Sendable {
    public let events: AsyncStream<PhoneEvent>
    public let video: VideoFrameHub
    /// The addresses really bound (port 0 in the settings resolved to the chosen port).
    public let listening: [ListenAddress]

    private let thread: LinphoneThread
    private let driverID: Int
    private let eventSink: AsyncStream<PhoneEvent>.Continuation

    private init(events: AsyncStream<PhoneEvent>, eventSink: AsyncStream<PhoneEvent>.Continuation,
                 video: VideoFrameHub, listening: [ListenAddress], thread: LinphoneThread, driverID: Int) {
        self.events = events
        self.eventSink = eventSink
        self.video = video
        self.listening = listening
        self.thread = thread
        self.driverID = driverID
    }

    /// Creates the core on the linphone thread and returns once it listens.
    public static func start(_ settings: PhoneSettings, logger: Logger = Logger()) async throws -> Phone {
        try FileManager.default.createDirectory(atPath: settings.dataDirectory, withIntermediateDirectories: true)
        let (events, continuation) = AsyncStream<PhoneEvent>.makeStream(bufferingPolicy: .unbounded)
        let hub = VideoFrameHub()
        let thread = LinphoneThread.shared
        let (id, listening): (Int, [ListenAddress]) = try await withCheckedThrowingContinuation { started in
            thread.post { context in
                LinphoneProcess.silenceLogging()
                if !context.arenasLimited {
                    context.arenasLimited = true
                    FreedMemory.limitArenas()
                }
                // For every core, in its own folder: a core loads the plugins when it is made,
                // and an earlier phone's folder may be gone by then (a test's, a stopped demo's).
                LinphoneProcess.restrictPlugins(workDirectory: settings.dataDirectory)
                do {
                    let driver = try LinphoneCoreDriver(settings: settings, videoHub: hub, logger: logger) { event in
                        continuation.yield(event)
                    }
                    let id = context.add(driver)
                    continuation.yield(.listening(driver.boundAddresses))
                    started.resume(returning: (id, driver.boundAddresses))
                } catch {
                    continuation.finish()
                    started.resume(throwing: error)
                }
            }
        }
        return Phone(events: events, eventSink: continuation, video: hub, listening: listening,
                     thread: thread, driverID: id)
    }

    /// Runs `body` on the linphone thread with this phone's core and returns its result.
    func perform<T: Sendable>(_ body: @escaping @Sendable (LinphoneCoreDriver) throws -> T) async throws -> T {
        let id = driverID
        return try await withCheckedThrowingContinuation { (reply: CheckedContinuation<T, Error>) in
            thread.post { context in
                guard let driver = context.driver(id) else { return reply.resume(throwing: PhoneError.stopped) }
                do { reply.resume(returning: try body(driver)) } catch { reply.resume(throwing: error) }
            }
        }
    }

    // MARK: - Requests

    /// Answers a ringing call, with video when the caller offers it. With `recordTo`, the call is
    /// recorded there from the moment its media runs until it ends: both sides' audio mixed, and
    /// the caller's video when the name ends in `.mkv` (a `.wav` keeps the audio only).
    public func answer(_ id: CallID, video: Bool = true, recordTo: String? = nil) async throws {
        try await perform { try $0.answer(id, video: video, recordTo: recordTo) }
    }

    /// Refuses a ringing call. `reason` picks the SIP status: declined → 603, busy → 486, forbidden → 403.
    public func decline(_ id: CallID, reason: DeclineReason = .declined) async throws {
        try await perform { try $0.decline(id, reason: reason.linphoneReason) }
    }

    public func hangup(_ id: CallID) async throws {
        try await perform { try $0.hangup(id) }
    }

    /// Ends a call whose caller called again (a panel that lost our BYE, or rebooted): reported
    /// as the caller's hang-up, or as missed when it was still ringing.
    public func replace(_ id: CallID) async throws {
        try await perform { try $0.replace(id) }
    }

    /// Places an outgoing call; `uri` like `sip:100@127.0.0.1:5070;transport=tcp`.
    public func call(_ uri: String, video: Bool = true) async throws -> CallID {
        try await perform { try $0.call(uri, video: video) }
    }

    /// Passes an answered call on to `uri` (blind transfer: a REFER asks the other side to call
    /// `uri`); `transferred` reports the outcome, and the call ends `transferred` once it connected.
    public func transfer(_ id: CallID, to uri: String) async throws {
        try await perform { try $0.transfer(id, to: uri) }
    }

    /// Puts an answered call on hold, or takes it off hold (attended transfer's consultation).
    public func hold(_ id: CallID, _ held: Bool) async throws {
        try await perform { try $0.hold(id, held) }
    }

    /// Attended transfer: the caller of `id` (on hold) is asked to call the other side of the
    /// answered call `other` in its place (REFER with Replaces); `transferred` reports the outcome.
    public func transfer(_ id: CallID, toCallOf other: CallID) async throws {
        try await perform { try $0.transfer(id, toCallOf: other) }
    }

    /// Sends `digits` as RFC 2833 events: each lasting `timing.durationMs`, the whole code
    /// `timing.repeat` times with `timing.gapMs` between rounds. `dtmfSent` follows the last digit.
    public func sendDTMF(_ id: CallID, digits: String, timing: DTMFTiming = DTMFTiming()) async throws {
        try await perform { try $0.sendDTMF(id, digits: digits, timing: timing) }
    }

    /// Mutes our microphone in one call, or for every call when `call` is nil.
    public func setMicrophoneMuted(_ muted: Bool, call: CallID? = nil) async throws {
        try await perform { try $0.setMicrophoneMuted(call, muted: muted) }
    }

    public func audioDevices() async throws -> [AudioDevice] {
        try await perform { $0.audioDevices() }
    }

    /// Switches where call audio plays (the speaker toggle); nil call = the default for new calls too.
    public func setOutputDevice(_ deviceID: String, call: CallID? = nil) async throws {
        try await perform { try $0.setOutputDevice(deviceID, call: call) }
    }

    /// Sends REGISTER again now (after a failure, or when the network came back).
    public func refreshRegistration() async throws {
        try await perform { linphone_core_refresh_registers($0.core) }
    }

    /// Ends every call, then destroys the core; `events` finishes. Safe to call more than once.
    public func stop() async {
        let id = driverID
        let sink = eventSink
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            thread.post { context in
                context.stop(id) {
                    sink.finish()
                    done.resume()
                }
            }
        }
    }
}

public enum DeclineReason: Sendable {
    case declined, busy, forbidden, doNotDisturb
    /// 480 Temporarily Unavailable: a desk of a site that is off duty refuses its fork of a call.
    case temporarilyUnavailable

    var linphoneReason: LinphoneReason {
        switch self {
        case .declined: LinphoneReasonDeclined
        case .busy: LinphoneReasonBusy
        case .forbidden: LinphoneReasonForbidden
        case .doNotDisturb: LinphoneReasonDoNotDisturb
        case .temporarilyUnavailable: LinphoneReasonTemporarilyUnavailable
        }
    }
}
