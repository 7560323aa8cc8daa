import Foundation
import Synchronization
import IntercomBase

/// The part file an export writes, from the transfer's thread: appended to a kept part, or from the
/// start. Plain `write(2)` on the descriptor: a failed write (a full disk) is kept and reported once the
/// transfer ends, never a trap (FileHandle's `write(_:)` traps on an error).
final class ArchiveFileSink: Sendable {
    private struct State {
        var fd: Int32
        var written = 0
        var head = Data()
        /// errno of the first failed write; nothing more is written after it.
        var failure: Int32?
    }
    private let state: Mutex<State>

    /// Takes `fd` (read and write; closed by `close()`); with `existing` bytes kept, writes go after
    /// them and their first bytes are read back for `isMP4`.
    init(fd: Int32, existing: Int) {
        var head = Data()
        if existing > 0 {
            var bytes = [UInt8](repeating: 0, count: Self.headBytes)
            let read = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            head = Data(bytes.prefix(max(0, read)))
            lseek(fd, 0, SEEK_END)
        }
        state = Mutex(State(fd: fd, written: existing, head: head))
    }

    /// How much of the file's start `isMP4` looks at.
    private static let headBytes = 12

    /// A sink dropped without `close()` (a path that threw before it) still gives its descriptor back.
    deinit { close() }

    /// The server sends the whole piece (not the rest): what was kept goes.
    func restart() {
        state.withLock { s in
            guard s.written > 0, s.fd >= 0 else { return }
            if ftruncate(s.fd, 0) != 0 || lseek(s.fd, 0, SEEK_SET) != 0 { s.failure = s.failure ?? errno }
            s.written = 0
            s.head = Data()
        }
    }

    /// Appends `chunk`; the bytes in the file so far, or nil once a write failed (`writeFailure` says why).
    func write(_ chunk: Data) -> Int? {
        state.withLock { s in
            guard s.failure == nil, s.fd >= 0 else { return nil }
            if let failure = chunk.withUnsafeBytes({ WriteAll.write($0, to: s.fd) }) {
                s.failure = failure
                return nil
            }
            if s.head.count < Self.headBytes { s.head.append(chunk.prefix(Self.headBytes - s.head.count)) }
            s.written += chunk.count
            return s.written
        }
    }

    /// Closes the file; the bytes in it.
    @discardableResult
    func close() -> Int {
        state.withLock { s in
            if s.fd >= 0 { Glibc.close(s.fd) }
            s.fd = -1
            return s.written
        }
    }

    /// Why the file could not be written (strerror), or nil when every chunk was.
    var writeFailure: String? { state.withLock { $0.failure.map { String(cString: strerror($0)) } } }

    /// An ISO media file begins with a box whose type is `ftyp`.
    var isMP4: Bool { state.withLock { $0.head.count >= 8 && $0.head[4..<8] == Data("ftyp".utf8) } }
}
