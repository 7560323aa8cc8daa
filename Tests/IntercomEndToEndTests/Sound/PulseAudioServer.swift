import Foundation
import IntercomTestSupport

/// A private PulseAudio server for one test (`pulseaudio --daemonize=no -n`): two null sinks,
/// `playback` and `speaker` (the default, so sound on `playback` went there on purpose), whose
/// monitors record what was played to them, on a socket in the test's folder. Clients find it through `PULSE_SERVER`.
final class PulseAudioServer: @unchecked Sendable {
    let directory: TestDirectory
    let socket: String
    let process: Subprocess

    /// The device ids liblinphone gives the two sinks (its PulseAudio card names them by description).
    static let playbackDevice = "PulseAudio Unknown: intercom_playback"
    static let speakerDevice = "PulseAudio Unknown: intercom_speaker"

    init(in parent: TestDirectory) async throws {
        directory = parent
        let runtime = try parent.subdirectory("pulse")
        chmod(runtime.path, 0o700)
        socket = runtime.appendingPathComponent("native").path
        let script = try parent.write("""
            load-module module-null-sink sink_name=playback sink_properties=device.description=intercom_playback
            load-module module-null-sink sink_name=speaker sink_properties=device.description=intercom_speaker
            load-module module-native-protocol-unix auth-anonymous=1 socket=\(socket)
            set-default-sink speaker
            """, to: "pulse.pa")
        process = try Subprocess("pulseaudio", ["--daemonize=no", "-n", "-F", script.path, "--exit-idle-time=-1",
                                                "--use-pid-file=no", "--disable-shm=yes", "--log-target=stderr"],
                                 name: "pulseaudio",
                                 environment: ["XDG_RUNTIME_DIR": runtime.path, "HOME": runtime.path, "PULSE_SERVER": nil],
                                 logDirectory: parent.url)
        if await TestPatience.eventually(within: .seconds(10), every: .milliseconds(100), {
            (try? await pactl(["info"]))?.status == 0
        }) { return }
        await process.stop()
        throw HarnessError("pulseaudio did not start within 10 s:\n\(process.combinedOutput)")
    }

    var environment: [String: String?] { ["PULSE_SERVER": "unix:\(socket)"] }

    func pactl(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await Subprocess.run(try ExternalTool.path("pactl"), arguments, environment: environment,
                                 logDirectory: directory.url, timeout: .seconds(10))
    }

    /// The sink names the playing streams are on (`pactl list short sink-inputs` → sinks).
    func sinksPlaying() async throws -> [String] {
        let sinks = try await pactl(["list", "short", "sinks"]).stdout.split(separator: "\n")
            .reduce(into: [String: String]()) { names, line in
                let fields = line.split(separator: "\t")
                if fields.count > 1 { names[String(fields[0])] = String(fields[1]) }
            }
        return try await pactl(["list", "short", "sink-inputs"]).stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t")
            return fields.count > 1 ? sinks[String(fields[1])] : nil
        }
    }

    /// Waits until every playing stream is on `sink` (and one is playing).
    func waitUntilPlaying(on sink: String, timeout: Duration = .seconds(10)) async throws {
        var seen: [String] = []
        if try await TestPatience.eventually(within: timeout, every: .milliseconds(100), {
            seen = try await sinksPlaying()
            return !seen.isEmpty && seen.allSatisfy({ $0 == sink })
        }) { return }
        throw HarnessError("expected the call's sound on sink \(sink), streams are on \(seen)")
    }

    /// The RMS level (0...1) of what `sink` plays, recorded from its monitor.
    /// Records until a second of sound (8000 samples) arrived, or `timeout` (a loaded machine starts
    /// a recording late).
    func level(of sink: String, timeout: Duration = .seconds(8)) async throws -> Double {
        // Raw 16-bit mono on parec's stdout (Subprocess keeps it in a file): no header to finish.
        let recorder = try Subprocess("parec", ["--latency-msec=200", "--device=\(sink).monitor", "--format=s16le", "--channels=1", "--rate=8000"],
                                      name: "parec-\(sink)", environment: environment, logDirectory: directory.url)
        await TestPatience.eventually(within: timeout, every: .milliseconds(100)) {
            ((try? FileManager.default.attributesOfItem(atPath: recorder.stdoutURL.path)[.size] as? Int) ?? 0) >= 1600 + 16000
        }
        await recorder.stop(grace: .seconds(2))
        let bytes = (try? Data(contentsOf: recorder.stdoutURL)) ?? Data()
        guard bytes.count >= 1600 else {
            throw HarnessError("parec recorded \(bytes.count) bytes from \(sink):\n\(recorder.combinedOutput)")
        }
        // Skip the first 0.1 s (what the monitor held from before).
        let samples = stride(from: 1600, to: bytes.count - 1, by: 2).map { index -> Double in
            Double(Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)) / Double(Int16.max)
        }
        return (samples.reduce(0) { $0 + $1 * $1 } / Double(max(1, samples.count))).squareRoot()
    }

    func stop() async {
        await process.stop()
    }
}
