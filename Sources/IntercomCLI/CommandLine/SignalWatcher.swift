import Dispatch
import Foundation

/// Turns SIGTERM, SIGINT and SIGHUP into an async stream, so the daemon ends calls cleanly
/// instead of dying inside a signal handler.
public struct SignalWatcher: Sendable {
    public let signals: AsyncStream<Int32>

    public init(_ numbers: [Int32]) {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        var sources: [DispatchSourceSignal] = []
        for number in numbers {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            sources.append(source)
        }
        // The sources live as long as the stream is consumed.
        let keep = SourceBox(sources)
        continuation.onTermination = { _ in keep.cancel() }
        signals = stream
    }
}

private final class SourceBox: @unchecked Sendable {
    // Only touched at termination, once.
    private let sources: [DispatchSourceSignal]
    init(_ sources: [DispatchSourceSignal]) { self.sources = sources }
    func cancel() { sources.forEach { $0.cancel() } }
}
