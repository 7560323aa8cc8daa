import CLinphone
import Foundation
import Synchronization

/// The SIP phone. liblinphone lives on one dedicated thread that iterates the core; every
/// request here is a message to that thread, and everything the core reports comes back
/// as `events`. Frames of call video arrive through `video`.
public final class Phone: Sendable {
    typealias Job = @Sendable (LinphoneCoreDriver) -> Void

    public let events: AsyncStream<PhoneEvent>
    public let video: VideoFrameHub
    /// The addresses really bound (port 0 in the settings resolved to the chosen port).
    public let listening: [ListenAddress]

    private let mailbox: Mailbox<Job>
    private let lifecycle: PhoneLifecycle

    private init(events: AsyncStream<PhoneEvent>, video: VideoFrameHub, listening: [ListenAddress],
                 mailbox: Mailbox<Job>, lifecycle: PhoneLifecycle) {
        self.events = events
        self.video = video
        self.listening = listening
        self.mailbox = mailbox
        self.lifecycle = lifecycle
    }

    /// Creates the core on a new thread and returns once it listens.
    public static func start(_ settings: PhoneSettings, logger: Logger = Logger()) async throws -> Phone {
        LinphoneLogging.silenceOnce()
        try FileManager.default.createDirectory(atPath: settings.dataDirectory, withIntermediateDirectories: true)
        let (events, continuation) = AsyncStream<PhoneEvent>.makeStream(bufferingPolicy: .unbounded)
        let hub = VideoFrameHub()
        let mailbox = Mailbox<Job>()
        let lifecycle = PhoneLifecycle()
        let listening: [ListenAddress] = try await withCheckedThrowingContinuation { started in
            let thread = Thread {
                let driver: LinphoneCoreDriver
                do {
                    driver = try LinphoneCoreDriver(settings: settings, videoHub: hub, logger: logger) { event in
                        continuation.yield(event)
                    }
                } catch {
                    _ = mailbox.close()
                    continuation.finish()
                    started.resume(throwing: error)
                    return
                }
                continuation.yield(.listening(driver.boundAddresses))
                started.resume(returning: driver.boundAddresses)
                Phone.run(driver, mailbox: mailbox, lifecycle: lifecycle)
                continuation.finish()
                lifecycle.didFinish()
            }
            thread.name = "intercom.phone"
            thread.stackSize = 1 << 20
            thread.start()
        }
        return Phone(events: events, video: hub, listening: listening, mailbox: mailbox, lifecycle: lifecycle)
    }

    /// The phone thread's loop: jobs as they come, liblinphone at least every 20 ms
    /// (10 ms while calls exist, so answer → media stays quick).
    private static func run(_ driver: LinphoneCoreDriver, mailbox: Mailbox<Job>, lifecycle: PhoneLifecycle) {
        var stopDeadline: Date?
        while true {
            let interval = driver.hasCalls ? 0.010 : 0.020
            let jobs = mailbox.take(waitingUntil: Date().addingTimeInterval(interval))
            for job in jobs { job(driver) }
            driver.iterate()
            if stopDeadline == nil, lifecycle.stopRequested {
                driver.terminateAll()
                stopDeadline = Date().addingTimeInterval(3)
            }
            if let deadline = stopDeadline, !driver.hasCalls || Date() > deadline {
                break
            }
        }
        for job in mailbox.close() { job(driver) }
        driver.teardown()
    }

    /// Runs `body` on the phone thread and returns its result.
    func perform<T: Sendable>(_ body: @escaping @Sendable (LinphoneCoreDriver) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (reply: CheckedContinuation<T, Error>) in
            let queued = mailbox.post { driver in
                do { reply.resume(returning: try body(driver)) } catch { reply.resume(throwing: error) }
            }
            if !queued { reply.resume(throwing: PhoneError.stopped) }
        }
    }

    // MARK: - Requests

    /// Answers a ringing call, with video when the caller offers it.
    public func answer(_ id: CallID, video: Bool = true) async throws {
        try await perform { try $0.answer(id, video: video) }
    }

    /// Refuses a ringing call. `reason` picks the SIP status: declined → 603, busy → 486, forbidden → 403.
    public func decline(_ id: CallID, reason: DeclineReason = .declined) async throws {
        try await perform { try $0.decline(id, reason: reason.linphoneReason) }
    }

    public func hangup(_ id: CallID) async throws {
        try await perform { try $0.hangup(id) }
    }

    /// Places an outgoing call; `uri` like `sip:100@127.0.0.1:5070;transport=tcp`.
    public func call(_ uri: String, video: Bool = true) async throws -> CallID {
        try await perform { try $0.call(uri, video: video) }
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

    /// Ends every call, releases the core and the thread. Safe to call more than once.
    public func stop() async {
        lifecycle.requestStop()
        // Any job wakes the loop, which then sees the request.
        mailbox.post { _ in }
        await lifecycle.waitUntilFinished()
    }
}

public enum DeclineReason: Sendable {
    case declined, busy, forbidden, doNotDisturb

    var linphoneReason: LinphoneReason {
        switch self {
        case .declined: LinphoneReasonDeclined
        case .busy: LinphoneReasonBusy
        case .forbidden: LinphoneReasonForbidden
        case .doNotDisturb: LinphoneReasonDoNotDisturb
        }
    }
}
