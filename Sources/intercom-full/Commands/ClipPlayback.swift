import Foundation
import IntercomBase
import IntercomCLI
import IntercomImaging
import IntercomPhone
import IntercomTerminal
import IntercomTUI
import IntercomVideo
import Synchronization

/// `intercom log --play ENTRY`: an entry's clips drawn in the terminal at their own pace (frames
/// are timed by their timestamps against a clock: a file would otherwise decode in a blink),
/// with the sound extracted to a temporary WAV and played on `[audio] playback` by liblinphone.
/// The alternate screen is always given back; q, Esc or Ctrl-C stop.
enum ClipPlayback {
    @Sendable static func play(_ clips: [String], _ invocation: Invocation) async -> Int32 {
        guard isatty(1) == 1, isatty(0) == 1 else {
            return Console.fail("log --play needs a terminal; the clip files are named by 'intercom log --json'",
                                code: ExitCode.usage)
        }
        let config: IntercomConfig
        do {
            config = try invocation.loadConfig()
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
        let capabilities = TerminalCapabilities.detect(environment: invocation.environment)
        let graphics = invocation.arguments.value("--graphics").flatMap { $0 == "auto" ? nil : $0 }
        let choice = capabilities.choose(override: graphics)
        let window = capabilities.windowSize ?? WindowSize(cols: 80, rows: 24)
        // The last row says what plays.
        let area = CellArea(cols: window.cols, rows: max(1, window.rows - 1))
        let renderer = ImageRenderer(choice: choice, capabilities: capabilities, placement: .absolute, symbolEngine: .fast)
        let device = config.audio.playback == "default" ? nil : config.audio.playback
        let stop = StopFlag()
        let raw = RawMode(fd: 0)
        defer { raw?.restore() }
        let keys = KeyWatch(stop: stop)
        let terminal = TerminalWriter.standardOutput
        // Alternate screen, cursor hidden.
        _ = terminal.write("\u{1b}[?1049h\u{1b}[?25l\u{1b}[2J")
        var failure: String?
        var soundTrouble: String?
        for (number, clip) in clips.enumerated() where !stop.isSet {
            do {
                soundTrouble = try await playOne(clip, label: "clip \(number + 1)/\(clips.count)", area: area, window: window,
                                  renderer: renderer, capabilities: capabilities, device: device, stop: stop)
            } catch {
                failure = error.description
                break
            }
        }
        keys.finish()
        _ = terminal.write(renderer.eraseBytes() + Array("\u{1b}[?25h\u{1b}[?1049l".utf8))
        if let failure { return Console.fail("cannot play the clip: \(failure)", code: ExitCode.dataError) }
        if let soundTrouble { Console.error("intercom: the clip played without its sound: \(soundTrouble)") }
        return ExitCode.ok
    }

    private static func playOne(_ path: String, label: String, area: CellArea, window: WindowSize,
                                renderer: ImageRenderer, capabilities: TerminalCapabilities, device: String?,
                                stop: StopFlag) async throws(VideoError) -> String? {
        let clip: ClipFile
        do {
            clip = try ClipFile(path: path)
        } catch {
            // A call without video (the panel sent none) is recorded as sound alone.
            guard let sound = startSound(path, device: device) else { throw error }
            return await playSoundOnly(sound, label: label, window: window, stop: stop)
        }
        defer { clip.close() }
        let size = fit(clip.videoSize, into: renderer.decodeSize(for: area, cellPixels: capabilities.cellPixels))
        let sound = startSound(path, device: device)
        let terminal = TerminalWriter.standardOutput
        let clock = ContinuousClock()
        let start = clock.now
        renderer.reset()
        while !stop.isSet, let (image, seconds) = clip.nextFrame(size: size) {
            let due = start.advanced(by: .milliseconds(Int(seconds * 1000)))
            // Behind by more than a frame (a slow terminal): skip the picture, keep the time.
            if clock.now > due.advanced(by: .milliseconds(100)) { continue }
            try? await clock.sleep(until: due)
            var bytes = renderer.render(image: image, into: area, cellPixels: capabilities.cellPixels).bytes
            let status = "\(label)  \(minutes(seconds))  q stops"
            bytes += Array("\u{1b}[\(window.rows);1H\u{1b}[2K\(String(status.prefix(window.cols)))".utf8)
            _ = terminal.write(bytes)
        }
        guard let (player, wav) = sound else { return nil }
        defer { unlink(wav) }
        if stop.isSet { await player.stop() }
        return await player.finished()
    }

    /// A clip with no picture: its sound, and the time on the status line.
    private static func playSoundOnly(_ sound: (SoundFilePlayer, String), label: String, window: WindowSize,
                                      stop: StopFlag) async -> String? {
        let (player, wav) = sound
        defer { unlink(wav) }
        let clock = ContinuousClock()
        let start = clock.now
        while !stop.isSet && !player.isFinished {
            let seconds = Double((clock.now - start).components.seconds)
            let status = "\(label)  (sound only)  \(minutes(seconds))  q stops"
            _ = TerminalWriter.standardOutput.write("\u{1b}[\(window.rows);1H\u{1b}[2K\(String(status.prefix(window.cols)))")
            try? await Task.sleep(for: .milliseconds(250))
        }
        if stop.isSet { await player.stop() }
        return await player.finished()
    }

    /// The clip's sound as a temporary WAV, playing; nil when it has none (or it cannot be read).
    private static func startSound(_ clip: String, device: String?) -> (SoundFilePlayer, String)? {
        var template = Array((NSTemporaryDirectory() + "intercom-clip-XXXXXX.wav").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemps(base, 4)
        }
        guard fd >= 0 else { return nil }
        close(fd)
        let wav = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard (try? ClipAudio.extract(clip, to: wav)) == true else {
            unlink(wav)
            return nil
        }
        return (SoundFilePlayer(file: wav, device: device), wav)
    }

    /// The largest size with the clip's shape inside `box`.
    static func fit(_ video: PixelSize, into box: PixelSize) -> PixelSize {
        guard video.width > 0, video.height > 0 else { return box }
        let scale = min(Double(box.width) / Double(video.width), Double(box.height) / Double(video.height))
        return PixelSize(width: max(1, Int(Double(video.width) * scale)), height: max(1, Int(Double(video.height) * scale)))
    }

    private static func minutes(_ seconds: Double) -> String {
        let whole = Int(seconds)
        return String(format: "%d:%02d", whole / 60, whole % 60)
    }
}

/// Set by a key or the end; read by the drawing loop and the sound.
final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .relaxed) }
    var isSet: Bool { value.load(ordering: .relaxed) }
}

/// Reads keys on its own thread while a clip plays: q, Q, Esc and Ctrl-C (raw mode sends no
/// signal) set the stop flag.
private final class KeyWatch: Sendable {
    private let done = StopFlag()

    init(stop: StopFlag) {
        let done = self.done
        let thread = Thread {
            var pollFD = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            var byte: UInt8 = 0
            while !done.isSet && !stop.isSet {
                guard poll(&pollFD, 1, 100) > 0 else { continue }
                guard read(0, &byte, 1) == 1 else { break }
                if [UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x1b, 0x03].contains(byte) { stop.set() }
            }
        }
        thread.name = "intercom.keys"
        thread.start()
    }

    func finish() { done.set() }
}
