import Foundation

/// The lines typed on stdin, read by one thread of their own (a blocking `readLine`), for the
/// fleet's control commands (`ring panel-07`). The stream finishes at end of input; the thread
/// then ends. Only an executable uses this: the process exits with the thread possibly still reading.
enum StandardInputLines {
    static func stream() -> AsyncStream<String> {
        let (lines, sink) = AsyncStream<String>.makeStream(bufferingPolicy: .unbounded)
        let thread = Thread {
            while let line = readLine(strippingNewline: true) { sink.yield(line) }
            sink.finish()
        }
        thread.name = "stdin-lines"
        thread.start()
        return lines
    }
}
