import CFrameSink
import CLinphone
import Foundation
import IntercomBase

/// Owns one liblinphone core. Lives on the phone thread: every method, and every liblinphone
/// callback that reaches it, runs there, and the entry points assert it
/// (`LinphoneThread.assertOnThread`). Nothing in here is Sendable on purpose. Its state is
/// internal, not private, so the concerns can live in their own files (+Setup, +Commands,
/// +Callbacks, +CallLogs); the class itself never leaves the phone target.
final class LinphoneCoreDriver {
    let core: OpaquePointer
    let callbacks: OpaquePointer
    let settings: PhoneSettings
    let emit: (PhoneEvent) -> Void
    let videoHub: VideoFrameHub
    let logger: Logger
    var frameSink: OpaquePointer?
    var calls: [CallID: CallRecord] = [:]
    var idsByCall: [OpaquePointer: CallID] = [:]
    var nextCallNumber = 0
    var timers: [(deadline: Date, action: () -> Void)] = []
    var boundAddresses: [ListenAddress] = []
    /// Our SIP sockets (UDP, TCP listeners), watched by the linphone thread.
    private(set) var sipDescriptors: [Int32] = []
    /// Drops UDP SIP messages liblinphone cannot survive before belle-sip reads them.
    var datagramGuard: SIPDatagramGuard?

    var hasCalls: Bool { !calls.isEmpty }
    /// When the earliest of our timers is due; nil: none set.
    var nextTimer: Date? { timers.map(\.deadline).min() }

    init(settings: PhoneSettings, videoHub: VideoFrameHub, logger: Logger,
         emit: @escaping (PhoneEvent) -> Void) throws(PhoneError) {
        LinphoneThread.assertOnThread()
        self.settings = settings
        self.logger = logger
        self.emit = emit
        self.videoHub = videoHub
        try Self.checkListenAddresses(settings.listen)

        let factory = linphone_factory_get()
        // Creating and destroying cores initialises process-wide C state (libsrtp, the factory);
        // two threads doing it at once abort in mediastreamer. The lock is in LinphoneProcess.
        LinphoneProcess.lock.lock()
        defer { LinphoneProcess.lock.unlock() }
        guard let core = linphone_factory_create_core_3(factory, nil, nil, nil) else {
            throw .coreStartFailed(code: -1)
        }
        guard let callbacks = linphone_factory_create_core_cbs(factory) else {
            linphone_core_unref(core)
            throw .coreStartFailed(code: -1)
        }
        self.core = core
        self.callbacks = callbacks
        configure()
        installCallbacks()
        do {
            try configureSecurity()
        } catch {
            LinphoneProcess.lock.unlock()
            teardown()
            LinphoneProcess.lock.lock()
            throw error
        }
        let status = linphone_core_start(core)
        guard status == 0 else {
            LinphoneProcess.lock.unlock()
            teardown()
            LinphoneProcess.lock.lock()
            throw .coreStartFailed(code: status)
        }
        // The TLS listening point may only exist now; the trust settings are applied to it again.
        applyTLSTrust()
        try readBackTransports()
        sipDescriptors = SocketInventory.descriptors(for: boundAddresses)
        if !SIPIngress.inPlace {
            logger.warning("this program was linked without the SIP read hooks: a caller's address is unknown, so direct calls match no panel")
        }
        let udpDescriptors = SocketInventory.descriptors(for: boundAddresses.filter { $0.transport == .udp })
        if udpDescriptors.isEmpty, let udp = boundAddresses.first(where: { $0.transport == .udp }) {
            logger.warning("found no socket for \(udp): SIP from strangers on it is not screened at the read")
        }
        let guardian = SIPDatagramGuard(
            udpDescriptors: udpDescriptors,
            tcpPorts: boundAddresses.filter { $0.transport == .tcp }.map(\.port),
            gate: settings.callerGate, logger: logger)
        datagramGuard = guardian
        SIPDatagramGuards.shared.register(guardian)
        if let account = settings.account { try addAccount(account) }
    }

    // MARK: - Loop

    /// One turn of the phone thread: liblinphone's work, then our due timers.
    func iterate() {
        LinphoneThread.assertOnThread()
        datagramGuard?.screen()
        linphone_core_iterate(core)
        guard !timers.isEmpty else { return }
        let now = Date()
        let due = timers.filter { $0.deadline <= now }
        timers.removeAll { $0.deadline <= now }
        for timer in due { timer.action() }
    }

    func after(_ seconds: Double, _ action: @escaping () -> Void) {
        LinphoneThread.assertOnThread()
        timers.append((Date().addingTimeInterval(seconds), action))
    }

    /// Ends every call; the loop keeps iterating until they are released.
    func terminateAll() {
        LinphoneThread.assertOnThread()
        for record in calls.values {
            record.endedLocally = true
            _ = linphone_call_terminate(record.call)
        }
    }

    func teardown() {
        LinphoneThread.assertOnThread()
        if let datagramGuard { SIPDatagramGuards.shared.unregister(datagramGuard) }
        LinphoneProcess.lock.lock()
        defer { LinphoneProcess.lock.unlock() }
        linphone_core_stop(core)
        linphone_core_remove_callbacks(core, callbacks)
        linphone_core_cbs_unref(callbacks)
        linphone_core_set_user_data(core, nil)
        for record in calls.values { linphone_call_unref(record.call) }
        calls.removeAll()
        idsByCall.removeAll()
        linphone_core_unref(core)
        if let frameSink { intercom_frame_sink_free(frameSink) }
        frameSink = nil
    }

    func record(_ id: CallID) throws(PhoneError) -> CallRecord {
        LinphoneThread.assertOnThread()
        guard let record = calls[id] else { throw .noSuchCall(id) }
        return record
    }

    // MARK: - Helpers

    /// liblinphone's own words for a failure, e.g. "Media lost" (503) after the RTP timeout.
    static func errorPhrase(_ call: OpaquePointer) -> String? {
        guard let info = linphone_call_get_error_info(call),
              let phrase = linphone_error_info_get_phrase(info).map({ String(cString: $0) }), !phrase.isEmpty
        else { return nil }
        let code = linphone_error_info_get_protocol_code(info)
        return code > 0 ? "\(phrase), \(code)" : phrase
    }

    /// Takes ownership of a string liblinphone allocated for us.
    static func string(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { bctbx_free(pointer) }
        return String(cString: pointer)
    }
}

extension LinphoneCoreDriver {
    /// Whether the caller cancelled this call because another device answered it. A forking
    /// registrar (kamailio's tm with `local_cancel_reason`, on by default) adds
    /// `Reason: SIP;cause=200;text="Call completed elsewhere"` to the CANCELs of the other branches.
    /// Seen with Debian's liblinphone 5.1 at the End state: the call log's status is
    /// `LinphoneCallAcceptedElsewhere` and the call's error info is protocol SIP, code 200 (reason
    /// None). Either is enough; a plain CANCEL leaves the status Missed and the error info empty.
    static func answeredElsewhere(_ call: OpaquePointer) -> Bool {
        if let log = linphone_call_get_call_log(call), linphone_call_log_get_status(log) == LinphoneCallAcceptedElsewhere {
            return true
        }
        guard let info = linphone_call_get_error_info(call),
              linphone_error_info_get_protocol(info).map({ String(cString: $0) }) == "SIP" else { return false }
        return linphone_error_info_get_protocol_code(info) == 200
    }
}
