import Foundation

/// Unbuffered writes to stdout for screen drawing: a frame must reach the terminal whole and
/// at once, not when a buffer happens to fill.
enum TerminalOutput {
    static func write(_ text: String) { write(Array(text.utf8)) }

    static func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Foundation.write(1, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }
            offset += n
        }
    }
}
