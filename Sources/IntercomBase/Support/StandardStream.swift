import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes to stdout and stderr that fail softly. Foundation's `FileHandle.write` traps on any
/// error (`intercom daemon 2>/dev/full` died of SIGILL on its first log line), and a closed pipe
/// raises SIGPIPE; the daemon must go on answering calls and keeping its journal whatever became
/// of its output. So every writer reports the error to its caller, which decides what to drop.
public enum StandardStream: Sendable {
    case output
    case error

    public var descriptor: Int32 { self == .output ? 1 : 2 }

    /// Writes all of `bytes` (`WriteAll`). nil on success, else the errno (EPIPE: the reader left;
    /// ENOSPC: the file is full; EAGAIN: a non-blocking reader is behind).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Int32? {
        bytes.withUnsafeBytes { WriteAll.write($0, to: descriptor) }
    }

    @discardableResult
    public func write(line: String) -> Int32? { write(Array((line + "\n").utf8)) }

    /// A process that writes to pipes must not die when a reader leaves (`daemon --events json |
    /// head -1`): with SIGPIPE ignored the write fails with EPIPE instead, and the writer decides.
    /// Called first thing by both executables; spawned hooks get default signals back.
    public static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}
