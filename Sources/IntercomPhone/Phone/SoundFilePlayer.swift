import CLinphone
import Foundation
import Synchronization

/// Plays a WAV file once on a sound device with liblinphone's local player (`intercom log
/// --play`: a clip's sound), on a thread of its own with a core that has no SIP transport, so it
/// runs beside a daemon that holds the SIP ports.
public final class SoundFilePlayer: Sendable {
    private let stopRequested = Atomic<Bool>(false)
    private let done = Mutex<(finished: Bool, waiters: [CheckedContinuation<Void, Never>], error: String?)>((false, [], nil))

    /// Starts at once. `device`: a liblinphone sound card id, or nil for the default playback device.
    public init(file: String, device: String?) {
        let thread = Thread { [self] in
            let error = Self.play(file: file, device: device, stop: { self.stopRequested.load(ordering: .relaxed) })
            let waiters = done.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.finished = true
                state.error = error
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
        thread.name = "intercom.sound"
        thread.start()
    }

    /// The file played out, failed or was stopped.
    public var isFinished: Bool { done.withLock { $0.finished } }

    /// Stops the sound and waits for the player to close.
    public func stop() async {
        stopRequested.store(true, ordering: .relaxed)
        await finished()
    }

    /// Waits until the file has played out (or failed); the failure in words, nil when it played.
    @discardableResult
    public func finished() async -> String? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = done.withLock { state -> Bool in
                if !state.finished { state.waiters.append(continuation) }
                return state.finished
            }
            if finished { continuation.resume() }
        }
        return done.withLock { $0.error }
    }

    private static func play(file: String, device: String?, stop: () -> Bool) -> String? {
        let directory = NSTemporaryDirectory() + "intercom-sound-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        LinphoneProcess.silenceLogging()
        let factory = linphone_factory_get()
        LinphoneProcess.lock.lock()
        guard let core = linphone_factory_create_core_3(factory, nil, nil, nil) else {
            LinphoneProcess.lock.unlock()
            return "liblinphone did not start"
        }
        let config = linphone_core_get_config(core)
        linphone_config_set_string(config, "storage", "uri", "\(directory)/linphone.db")
        linphone_config_set_int(config, "sip", "auto_net_state_mon", 0)
        linphone_core_set_call_logs_database_path(core, "\(directory)/call-history.db")
        linphone_core_set_zrtp_secrets_file(core, "\(directory)/zrtp-secrets.db")
        // No SIP at all: a running daemon keeps its ports.
        if let transports = linphone_factory_create_transports(factory) {
            linphone_transports_set_udp_port(transports, 0)
            linphone_transports_set_tcp_port(transports, 0)
            linphone_transports_set_tls_port(transports, 0)
            linphone_core_set_transports(core, transports)
            linphone_transports_unref(transports)
        }
        let started = linphone_core_start(core)
        LinphoneProcess.lock.unlock()
        defer {
            LinphoneProcess.lock.lock()
            linphone_core_stop(core)
            linphone_core_unref(core)
            LinphoneProcess.lock.unlock()
        }
        guard started == 0 else { return "liblinphone did not start (\(started))" }
        let devices = linphone_core_get_extended_audio_devices(core)
        let canPlay = BctbxList(devices).contains { linphone_audio_device_has_capability($0, LinphoneAudioDeviceCapabilityPlay) != 0 }
        bctbx_list_free_with_data(devices) { linphone_audio_device_unref(OpaquePointer($0)) }
        guard canPlay else { return "there is no sound device to play on" }
        guard let player = linphone_core_create_local_player(core, device, nil, nil) else {
            return "no player for sound device \(device ?? "default")"
        }
        defer { linphone_player_unref(player) }
        guard linphone_player_open(player, file) == 0 else { return "cannot open \(file)" }
        defer { linphone_player_close(player) }
        guard linphone_player_start(player) == 0 else { return "the sound device did not start" }
        let duration = Int(linphone_player_get_duration(player))
        let deadline = Date().addingTimeInterval(Double(max(duration, 0)) / 1000 + 1)
        while !stop(), Date() < deadline {
            linphone_core_iterate(core)
            if linphone_player_get_state(player) != LinphonePlayerPlaying { break }
            if duration > 0, Int(linphone_player_get_current_position(player)) >= duration { break }
            usleep(50_000)
        }
        return nil
    }
}
