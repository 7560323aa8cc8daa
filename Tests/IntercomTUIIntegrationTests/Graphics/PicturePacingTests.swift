import Foundation
import IntercomImaging
import IntercomSimulator
import IntercomTerminal
@testable import IntercomTUI
import IntercomTestSupport
import Testing

/// Newest frame wins on a slow terminal: video offered faster than the terminal reads is not
/// queued; frames go out only when the last one was taken, and the last one shown is the newest.
@Suite("Picture pacing")
struct PicturePacingTests {
    /// Set from the image closure: the newest frame was asked for (so it is being drawn).
    final class Flag: @unchecked Sendable {
        var raised = false
    }

    static func porch(_ frame: Int) -> RGBImage? {
        try? JPEG.decode(JPEG.encode(SyntheticFrame.render(frame: frame, label: "PACE", time: "12:00:00"), quality: 85))
    }

    /// A pipe as small as a terminal's buffer (one page), its write end non-blocking.
    static func smallPipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw HarnessError("pipe failed") }
        _ = fcntl(ends[1], 1031, 4096)  // F_SETPIPE_SZ (Linux), which Glibc does not export to Swift
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        return (ends[0], ends[1])
    }

    /// The terminal's side, on a thread of its own started at once (the writer blocks the test's
    /// thread, and Swift's tasks share only a few): reads `chunk` bytes at a time, pausing
    /// `pause` after each, until EOF.
    final class Reader: @unchecked Sendable {
        private let lock = NSLock()
        private var received: [UInt8]?

        init(fd: Int32, chunk: Int, pause: Double) {
            Thread {
                var bytes: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: chunk)
                while true {
                    let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                    guard n > 0 else { break }
                    bytes += buffer[0..<n]
                    if pause > 0 { Thread.sleep(forTimeInterval: pause) }
                }
                close(fd)
                self.lock.withLock { self.received = bytes }
            }.start()
        }

        /// Everything read, once the write end is closed.
        func value() async -> [UInt8] {
            var bytes: [UInt8]?
            // No deadline of its own: the writer closes its end when the test's draw loop ends.
            while bytes == nil {
                await TestPatience.eventually(every: .milliseconds(10)) { bytes = lock.withLock({ received }); return bytes != nil }
            }
            return bytes ?? []
        }
    }

    /// The kitty images in a byte stream, each as its first chunk's control keys and its whole payload.
    static func images(in bytes: [UInt8]) -> [[UInt8]] {
        let text = String(decoding: bytes, as: UTF8.self)
        var images: [String] = []
        for chunk in text.components(separatedBy: "\u{1B}_G").dropFirst() {
            guard let end = chunk.range(of: "\u{1B}\\"), let semicolon = chunk.firstIndex(of: ";") else { continue }
            let control = chunk[..<semicolon], data = String(chunk[chunk.index(after: semicolon)..<end.lowerBound])
            if control.contains("a=T") { images.append(data) } else if !images.isEmpty { images[images.count - 1] += data }
        }
        return images.compactMap { Data(base64Encoded: $0).map(Array.init) }
    }

    /// The screen's loop on a thread of its own, as the TUI's is: a write blocks its thread until
    /// the terminal takes the frame, which must not hold one of the few threads Swift's tasks share.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    static func output(writingTo fd: Int32) -> PictureOutput {
        PictureOutput(choice: GraphicsChoice(mode: .kitty, reason: "test"), capabilities: TerminalCapabilities(environment: [:]),
                      writer: TerminalWriter(fd: fd, patience: .seconds(5)))
    }

    @Test func aSlowTerminalGetsFewFramesAndTheNewestLast() async throws {
        let (readFD, writeFD) = try Self.smallPipe()
        // The terminal: 4 KiB every 5 ms (about 800 KB/s, a modest SSH link), everything kept.
        let reader = Reader(fd: readFD, chunk: 4096, pause: 0.005)
        // The source: a new frame every 5 ms (200 fps offered) for 1 s; the screen's loop turns every 5 ms.
        let newest = 199
        let (newestDrawn, took) = await Self.onThread { () -> (Bool, Duration) in
            let output = Self.output(writingTo: writeFD)
            let area = CellArea(cols: 64, rows: 24)
            let newestAsked = Flag()
            let clock = ContinuousClock()
            let start = clock.now
            while clock.now - start < .seconds(10) {
                let frame = min(newest, Int(start.duration(to: clock.now) / .milliseconds(5)))
                output.draw(slot: 0, area: area, source: ("f\(frame)", {
                    if frame == newest { newestAsked.raised = true }
                    return Self.porch(frame)
                }))
                if newestAsked.raised { break }
                Thread.sleep(forTimeInterval: 0.005)
            }
            close(writeFD)
            return (newestAsked.raised, start.duration(to: clock.now))
        }
        let received = await reader.value()
        let images = Self.images(in: received)
        #expect(newestDrawn, "the newest frame was never drawn")
        // 200 frames offered; at ~78 KB a frame the terminal takes about 10 a second, and with
        // the pacer's share fewer: far from all, and none waits behind another.
        #expect(images.count >= 2)
        #expect(images.count <= 40, "\(images.count) frames written in \(took)")
        let expected = try #require(Self.porch(newest))
        let last = try #require(images.last)
        let shown = Zlib.inflate(last, count: expected.pixels.count)
        #expect(shown == expected.pixels, "the last frame shown is not the newest")
        print("pacing: \(images.count) of \(newest + 1) frames written in \(took), \(received.count) bytes")
    }

    /// A terminal that keeps up gets the video at its own rate: 25 fps offered, well over the
    /// 10 a second pixel modes were held to before.
    @Test func aFastTerminalGetsTheVideoRate() async throws {
        let (readFD, writeFD) = try Self.smallPipe()
        let reader = Reader(fd: readFD, chunk: 65536, pause: 0)
        let pictures = (0..<25).map { SyntheticFrame.render(frame: $0, label: "PACE", time: "12:00:00") }
        let (offered, lastWrite) = await Self.onThread { () -> (Int, Duration?) in
            let output = Self.output(writingTo: writeFD)
            let clock = ContinuousClock()
            let start = clock.now
            var offered = -1
            while clock.now - start < .seconds(1) {
                let frame = Int(start.duration(to: clock.now) / .milliseconds(40))
                if frame != offered {
                    offered = frame
                    output.draw(slot: 0, area: CellArea(cols: 64, rows: 24), source: ("f\(frame)", { pictures[frame % pictures.count] }))
                }
                Thread.sleep(forTimeInterval: 0.002)
            }
            close(writeFD)
            return (offered + 1, output.lastFrame(slot: 0)?.writeTime)
        }
        let images = Self.images(in: await reader.value())
        print("fast terminal: \(images.count) of \(offered) frames, last written in \(String(describing: lastWrite))")
        #expect(images.count >= 15, "\(images.count) of \(offered) frames drawn in 1 s")
    }
}
