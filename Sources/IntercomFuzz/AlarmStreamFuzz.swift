import Foundation
import IntercomCore
import IntercomPanel

/// `alarmchangestate_cgi` as curl delivers it: the stream cut into chunks at arbitrary
/// places, lines rebuilt by `LineSplitter`, each line read as a `PanelAlarm`.
/// The first input byte chooses the chunk size, the rest is the stream.
enum AlarmStreamFuzz {
    static let maxLine = 256

    static func run(_ input: [UInt8]) {
        guard let first = input.first else { return }
        let stream = input.dropFirst()
        let chunkSize = Int(first % 32) + 1

        let chunked = LineSplitter(maxLine: maxLine)
        var lines: [String] = []
        var offset = stream.startIndex
        while offset < stream.endIndex {
            let end = min(offset + chunkSize, stream.endIndex)
            lines += chunked.feed(Data(stream[offset..<end]))
            offset = end
        }
        for line in lines {
            precondition(!line.utf8.contains(0x0A), "a line never holds a line feed")
            if let alarm = PanelAlarm(line: line) {
                precondition(!alarm.panelTime.utf8.contains(0x0A))
            }
        }
        // Where no line is long enough to be dropped, how curl cut the stream must not matter.
        let longest = stream.split(separator: 0x0A, omittingEmptySubsequences: false).map(\.count).max() ?? 0
        if longest + chunkSize <= maxLine {
            let whole = LineSplitter(maxLine: maxLine).feed(Data(stream))
            precondition(whole == lines, "chunking changed the lines")
        }
    }
}
