import CMosquitto
import Foundation
import IntercomBase
#if canImport(Glibc)
import Glibc
#endif

/// One libmosquitto client, confined to the MQTT thread (`MQTTClient`): it is created there, every
/// method and every libmosquitto callback runs there, and the entry points assert it. Not Sendable
/// on purpose. The library's own threads are not used (no `mosquitto_loop_start`): the thread
/// polls the socket itself and calls `loop_read`, `loop_write` and `loop_misc`.
final class MosquittoSession {
    private enum State { case disconnected, connecting, connected }

    private let handle: OpaquePointer?
    /// libmosquitto's functions (loaded on the first session); nil when it is not installed.
    private let functions: MosquittoLibrary.Functions?
    private let options: MQTTClientOptions
    private let emit: (MQTTClientEvent) -> Void
    private let owner = pthread_self()
    private var state = State.disconnected
    /// After CONNACK until `release()`: messages without `retain` still queue.
    private var held = true
    private var queue: [MQTTMessage] = []
    private var dropped = 0
    private var backOff = 1.0
    private var nextAttempt = ContinuousClock.now
    /// The last failure reported, so an outage is one line, not one per retry.
    private var lastReport: String?
    private var stopping = false
    /// Message ids of the last messages, until the broker has them.
    private var awaiting: Set<Int32> = []
    private var stopDeadline = ContinuousClock.now
    /// libmosquitto's error lines during the current connection attempt: the only place it says
    /// why a TLS handshake failed.
    private var attemptLog: [String] = []

    init(options: MQTTClientOptions, emit: @escaping (MQTTClientEvent) -> Void) {
        self.options = options
        self.emit = emit
        let mosquitto: intercom_mosquitto
        switch MosquittoLibrary.loaded {
        case .success(let loaded):
            functions = loaded
            mosquitto = loaded.c
        case .failure(let error):
            functions = nil
            handle = nil
            emit(.notConnecting(error.description))
            return
        }
        // A fixed id and a clean session: nothing of ours waits at the broker across restarts; the
        // bridge republishes what matters on every connect.
        handle = mosquitto.new_client(options.clientID, true, nil)
        guard let handle else {
            emit(.unreachable("cannot create an MQTT client (out of memory)"))
            return
        }
        mosquitto.user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        _ = mosquitto.int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311)
        // Events, states and results go out as bursts of small packets: with Nagle each one after
        // the first waits for the broker's delayed ACK (about 40 ms).
        _ = mosquitto.int_option(handle, MOSQ_OPT_TCP_NODELAY, 1)
        if let will = options.will {
            _ = will.payload.withUnsafeBytes { mosquitto.will_set(handle, will.topic, Int32(will.payload.count), $0.baseAddress, will.qos, will.retain) }
        }
        // The user, password and TLS are set (and checked) before each connect: `MosquittoSecurity`.
        mosquitto.log_callback_set(handle) { _, object, level, text in
            guard let object, let text, level == MOSQ_LOG_ERR else { return }
            Unmanaged<MosquittoSession>.fromOpaque(object).takeUnretainedValue().logged(String(cString: text))
        }
        mosquitto.connect_callback_set(handle) { _, object, code in
            guard let object else { return }
            Unmanaged<MosquittoSession>.fromOpaque(object).takeUnretainedValue().connectAnswered(code)
        }
        mosquitto.disconnect_callback_set(handle) { _, object, code in
            guard let object else { return }
            Unmanaged<MosquittoSession>.fromOpaque(object).takeUnretainedValue().dropped(code)
        }
        mosquitto.publish_callback_set(handle) { _, object, mid in
            guard let object else { return }
            Unmanaged<MosquittoSession>.fromOpaque(object).takeUnretainedValue().awaiting.remove(mid)
        }
        mosquitto.message_callback_set(handle) { _, object, message in
            guard let object, let message else { return }
            Unmanaged<MosquittoSession>.fromOpaque(object).takeUnretainedValue().received(message.pointee)
        }
    }

    deinit {
        if let handle, let functions { functions.c.destroy(handle) }
    }

    private func assertOnThread(file: StaticString = #fileID, line: UInt = #line) {
        assert(pthread_equal(owner, pthread_self()) != 0, "libmosquitto touched off the MQTT thread", file: file, line: line)
    }

    /// The thread's loop, until `stop`.
    func run(wake: WakePipe, takeJobs: () -> [MQTTClient.Job]) {
        assertOnThread()
        guard let handle, let mosquitto = functions?.c else { return }
        while true {
            if state == .disconnected && !stopping && ContinuousClock.now >= nextAttempt { connect() }
            let socket = state == .disconnected ? -1 : mosquitto.socket(handle)
            var fds = [pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)]
            if socket >= 0 {
                fds.append(pollfd(fd: socket, events: Int16(POLLIN) | (mosquitto.want_write(handle) ? Int16(POLLOUT) : 0), revents: 0))
            }
            var timeout: Int32 = 1000
            if state == .disconnected {
                let wait = ContinuousClock.now.duration(to: nextAttempt)
                timeout = Int32(max(0, min(1000, wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)))
            }
            _ = poll(&fds, nfds_t(fds.count), timeout)
            if fds[0].revents != 0 { wake.drain() }
            for job in takeJobs() { job(self) }
            if stopping && state != .connected { break }
            if stopping && (awaiting.isEmpty || ContinuousClock.now >= stopDeadline) { break }
            guard state != .disconnected, socket >= 0 else { continue }
            if fds.count > 1 && fds[1].revents != 0 {
                let code = mosquitto.loop_read(handle, 1)
                if code != MOSQ_ERR_SUCCESS.rawValue { lost(code); continue }
            }
            if mosquitto.want_write(handle) {
                let code = mosquitto.loop_write(handle, 1)
                if code != MOSQ_ERR_SUCCESS.rawValue { lost(code); continue }
            }
            let code = mosquitto.loop_misc(handle)
            if code != MOSQ_ERR_SUCCESS.rawValue && state != .disconnected { lost(code) }
        }
        if state != .disconnected {
            _ = mosquitto.disconnect(handle)
            _ = mosquitto.loop_write(handle, 1)
        }
    }

    // MARK: - Jobs

    func publish(_ message: MQTTMessage) {
        assertOnThread()
        if state == .connected && (!held || message.retain) {
            if send(message) != nil { return }
        }
        // Retained states and configs are not kept: the bridge publishes the current ones at connect.
        guard !message.retain else { return }
        queue.append(message)
        if queue.count > options.queueLimit {
            queue.removeFirst(queue.count - options.queueLimit)
            dropped += 1
        }
    }

    func release() {
        assertOnThread()
        guard state == .connected else { return }
        held = false
        let waiting = queue
        queue = []
        for message in waiting where send(message) == nil { queue.append(message) }
        if dropped > 0 {
            emit(.dropped(dropped))
            dropped = 0
        }
    }

    func stop(last: [MQTTMessage]) {
        assertOnThread()
        stopping = true
        guard state == .connected else { return }
        for message in last {
            if let mid = send(message) { awaiting.insert(mid) }
        }
        // Give the broker 2 s to acknowledge them; the loop ends once it has.
        stopDeadline = ContinuousClock.now + .seconds(2)
    }

    // MARK: - Connection

    private func connect() {
        guard let handle, let mosquitto = functions?.c else { return }
        // Secrets go out encrypted or not at all: a login or TLS setting libmosquitto did not take
        // means no connection (not even TCP), until the next attempt finds it fixed.
        if let problem = MosquittoSecurity.apply(mosquitto, handle, options) {
            report(.notConnecting(problem))
            backOff = options.maxBackOff
            scheduleRetry()
            return
        }
        state = .connecting
        held = true
        attemptLog = []
        // Blocking (DNS and the TCP handshake) but only this thread waits; CONNACK comes through the loop.
        let code = mosquitto.connect(handle, options.host, Int32(options.port), options.keepAlive)
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            let number = errno
            state = .disconnected
            if options.tls, code == MOSQ_ERR_TLS.rawValue || code == MOSQ_ERR_TLS_HANDSHAKE.rawValue {
                tlsFailed(MosquittoSecurity.tlsFailure(attemptLog, options: options)
                    ?? "the TLS handshake failed (\(describe(code, errno: number)))")
                return
            }
            report(.unreachable(describe(code, errno: number)))
            scheduleRetry()
            return
        }
    }

    /// A TLS handshake that failed: said once, in words, and retried slowly (a certificate does
    /// not fix itself). Nothing was sent: the CONNECT with the password waits for the handshake.
    private func tlsFailed(_ reason: String) {
        report(.tlsFailed(reason))
        backOff = options.maxBackOff
        scheduleRetry()
    }

    private func logged(_ line: String) {
        assertOnThread()
        attemptLog.append(line)
        if attemptLog.count > 16 { attemptLog.removeFirst() }
    }

    private func connectAnswered(_ code: Int32) {
        assertOnThread()
        guard let handle, let mosquitto = functions?.c else { return }
        guard code == 0 else {
            let reason = mosquitto.connack_string(code).map { String(cString: $0) } ?? "refused (\(code))"
            state = .disconnected
            _ = mosquitto.disconnect(handle)
            report(.refused(reason))
            // A refused login does not heal by itself: retry slowly.
            backOff = options.maxBackOff
            scheduleRetry()
            return
        }
        state = .connected
        backOff = 1
        lastReport = nil
        for topic in options.subscriptions { _ = mosquitto.subscribe(handle, nil, topic, 1) }
        emit(.connected)
    }

    private func dropped(_ code: Int32) {
        assertOnThread()
        guard state != .disconnected else { return }
        lost(code == 0 ? MOSQ_ERR_CONN_LOST.rawValue : code)
    }

    private func lost(_ code: Int32) {
        let number = errno
        let was = state
        state = .disconnected
        // Before CONNACK over TLS, with OpenSSL's words in the log: the handshake failed (a refused
        // certificate ends here, as "Protocol error").
        if was == .connecting && options.tls, let reason = MosquittoSecurity.tlsFailure(attemptLog, options: options) {
            tlsFailed(reason)
            return
        }
        if was == .connected { emit(.lost(describe(code, errno: number))) }
        lastReport = nil
        scheduleRetry()
    }

    private func scheduleRetry() {
        nextAttempt = ContinuousClock.now + .milliseconds(Int(backOff * 1000))
        backOff = min(options.maxBackOff, backOff * 2)
    }

    /// One line per kind of failure in a row, not one per retry.
    private func report(_ event: MQTTClientEvent) {
        let text = "\(event)"
        guard text != lastReport else { return }
        lastReport = text
        emit(event)
    }

    /// Publishes now; the message id, or nil when the library refused it.
    private func send(_ message: MQTTMessage) -> Int32? {
        guard let handle, let mosquitto = functions?.c else { return nil }
        var mid: Int32 = 0
        let code = message.payload.withUnsafeBytes {
            mosquitto.publish(handle, &mid, message.topic, Int32(message.payload.count), $0.baseAddress, message.qos, message.retain)
        }
        return code == MOSQ_ERR_SUCCESS.rawValue ? mid : nil
    }

    private func received(_ message: mosquitto_message) {
        assertOnThread()
        guard let topic = message.topic else { return }
        let payload = message.payload.map { Data(bytes: $0, count: Int(message.payloadlen)) } ?? Data()
        emit(.message(MQTTMessage(topic: String(cString: topic), payload: payload, qos: message.qos, retain: message.retain)))
    }

    private func describe(_ code: Int32, errno number: Int32) -> String {
        if code == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(number)) }
        return functions.map { MosquittoSecurity.describe($0.c, code) } ?? "error \(code)"
    }
}
