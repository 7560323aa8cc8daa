import Foundation
import IntercomTUI
import Testing
import IntercomTestSupport
import IntercomTerminal

/// The one writer to the terminal: every byte through a full non-blocking descriptor, and a
/// bounded wait, never a hang, when nothing reads.
@Suite("Terminal writer")
struct TerminalWriterTests {
    /// A pipe whose write end is non-blocking, as a tty left O_NONBLOCK by another program is.
    static func nonBlockingPipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw HarnessError("pipe failed") }
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        return (ends[0], ends[1])
    }

    @Test func everyByteArrivesThroughAFullNonBlockingPipe() async throws {
        let (readFD, writeFD) = try Self.nonBlockingPipe()
        defer { close(readFD) }
        // Four times a pipe's 64 KiB: the writer meets EAGAIN and short writes many times over.
        let bytes = (0..<(256 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let reader = Task.detached { () -> [UInt8] in
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            // Slowly at first, so the pipe is full when the writer comes back.
            try? await Task.sleep(for: .milliseconds(100))
            while true {
                let n = buffer.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
                guard n > 0 else { break }
                received += buffer[0..<n]
            }
            return received
        }
        let written = TerminalWriter(fd: writeFD, patience: .seconds(5)).write(bytes)
        close(writeFD)
        let received = await reader.value
        #expect(written)
        #expect(received.count == bytes.count)
        #expect(received == bytes)
    }

    @Test func aTerminalThatTakesNothingCostsThePatienceNotAHang() throws {
        let (readFD, writeFD) = try Self.nonBlockingPipe()
        defer {
            close(readFD)
            close(writeFD)
        }
        let clock = ContinuousClock()
        let started = clock.now
        let written = TerminalWriter(fd: writeFD, patience: .milliseconds(200)).write([UInt8](repeating: 0x41, count: 256 * 1024))
        let took = clock.now - started
        #expect(!written)
        #expect(took >= .milliseconds(200))
        #expect(took < .seconds(3), "gave up after \(took)")
    }

    @Test func aClosedReaderIsAFailureNotATrap() throws {
        let (readFD, writeFD) = try Self.nonBlockingPipe()
        close(readFD)
        defer { close(writeFD) }
        // SIGPIPE is ignored by both executables; the test process must not die of it either.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        #expect(!TerminalWriter(fd: writeFD).write("gone"))
    }
}
