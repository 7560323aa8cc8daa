import Foundation
import Synchronization

/// Turns a byte stream into lines; fed from curl's write callback, which may split
/// a line across chunks or deliver several at once. `package` so the fuzz target drives
/// the very splitter the alarm stream uses.
package final class LineSplitter: Sendable {
    private let pending = Mutex(Data())
    /// A line longer than this is not an alarm line; dropping it bounds memory on a bad stream.
    private let maxLine: Int

    package init(maxLine: Int = 4096) { self.maxLine = maxLine }

    package func feed(_ chunk: Data) -> [String] {
        pending.withLock { buffer in
            buffer.append(chunk)
            var lines: [String] = []
            while let newline = buffer.firstIndex(of: 0x0A) {
                var line = buffer[buffer.startIndex..<newline]
                if line.last == 0x0D { line = line.dropLast() }
                lines.append(String(decoding: line, as: UTF8.self))
                buffer.removeSubrange(buffer.startIndex...newline)
            }
            if buffer.count > maxLine { buffer.removeAll() }
            return lines
        }
    }
}
