import CSystemd
import Foundation
import IntercomBase

/// The sd-bus connection itself, touched only by `SessionBus`'s thread.
final class BusConnection {
    private var bus: OpaquePointer?
    private var slots: [OpaquePointer] = []
    private let emit: (SessionBus.Signal) -> Void
    private var stopping = false

    init(address: String, emit: @escaping (SessionBus.Signal) -> Void) throws(BusError) {
        self.emit = emit
        var bus: OpaquePointer?
        var code = sd_bus_new(&bus)
        guard code >= 0, let bus else { throw BusError("cannot make a D-Bus connection", code: code) }
        code = sd_bus_set_address(bus, address)
        if code >= 0 { code = sd_bus_set_bus_client(bus, 1) }
        if code >= 0 { _ = sd_bus_set_description(bus, "intercom-notify") }
        if code >= 0 { code = sd_bus_start(bus) }
        guard code >= 0 else {
            _ = sd_bus_flush_close_unref(bus)
            throw BusError("cannot connect to the session bus at \(address)", code: code)
        }
        self.bus = bus
    }

    /// A connection that is gone: every job on it fails.
    private init() {
        emit = { _ in }
    }

    /// Runs jobs posted after the thread ended against a dead connection, so each answers.
    static func failAll(_ jobs: [SessionBus.Job]) {
        let dead = BusConnection()
        for job in jobs { job(dead) }
    }

    deinit {
        for slot in slots { sd_bus_slot_unref(slot) }
        if let bus { _ = sd_bus_flush_close_unref(bus) }
    }

    func run(wake: WakePipe, takeJobs: () -> [SessionBus.Job]) {
        while let bus, !stopping {
            // Everything already read (signals, replies queued behind a call) before sleeping.
            var code: Int32 = 1
            while code > 0 { code = sd_bus_process(bus, nil) }
            if code < 0 { break }
            var fds = [pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: sd_bus_get_fd(bus), events: Int16(truncatingIfNeeded: sd_bus_get_events(bus)), revents: 0)]
            _ = poll(&fds, nfds_t(fds.count), pollTimeout(bus))
            if fds[0].revents != 0 { wake.drain() }
            for job in takeJobs() { job(self) }
        }
        for slot in slots { sd_bus_slot_unref(slot) }
        slots = []
        if let bus { _ = sd_bus_flush_close_unref(bus) }
        bus = nil
    }

    func stop() { stopping = true }

    /// Milliseconds until sd-bus wants to run again (a call's timeout), or -1: no wake-up of our own.
    private func pollTimeout(_ bus: OpaquePointer) -> Int32 {
        var until: UInt64 = 0
        guard sd_bus_get_timeout(bus, &until) >= 0, until != UInt64.max else { return -1 }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicros = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        return until <= nowMicros ? 0 : Int32(min(60_000, (until - nowMicros + 999) / 1000))
    }

    func call(_ method: SessionBus.Method, timeout: Duration) -> Result<SessionBus.Reply, BusError> {
        guard let bus else { return .failure(BusError(message: "the session bus connection is closed")) }
        var message: OpaquePointer?
        let code = sd_bus_message_new_method_call(bus, &message, method.destination, method.path, method.interface, method.member)
        guard code >= 0, let message else { return .failure(BusError("cannot make a \(method.member) call", code: code)) }
        defer { sd_bus_message_unref(message) }
        do {
            for argument in method.arguments { try BusCoding.append(argument, to: message) }
        } catch {
            return .failure(error)
        }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let micros = UInt64(timeout.components.seconds) * 1_000_000 + UInt64(timeout.components.attoseconds / 1_000_000_000_000)
        let result = sd_bus_call(bus, message, micros, &error, &reply)
        guard result >= 0, let reply else {
            return .failure(BusError("\(method.interface).\(method.member) failed", error: error, code: result))
        }
        defer { sd_bus_message_unref(reply) }
        let sender = sd_bus_message_get_sender(reply).map { String(cString: $0) }
        return .success(SessionBus.Reply(sender: sender, values: BusCoding.readAll(reply)))
    }

    func watch(path: String, interface: String) -> Result<Void, BusError> {
        guard let bus else { return .failure(BusError(message: "the session bus connection is closed")) }
        var slot: OpaquePointer?
        // No sender in the match: the bus daemon resolves well-known names, sd-bus's own filter
        // would not; the receiver checks the sender against the name's owner instead.
        let code = sd_bus_match_signal(bus, &slot, nil, path, interface, nil, { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            Unmanaged<BusConnection>.fromOpaque(userdata).takeUnretainedValue().received(message)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        guard code >= 0, let slot else { return .failure(BusError("cannot watch \(interface) signals", code: code)) }
        slots.append(slot)
        return .success(())
    }

    private func received(_ message: OpaquePointer) {
        func text(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }
        emit(SessionBus.Signal(sender: text(sd_bus_message_get_sender(message)),
                               interface: text(sd_bus_message_get_interface(message)) ?? "",
                               member: text(sd_bus_message_get_member(message)) ?? "",
                               values: BusCoding.readAll(message)))
    }
}
