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

    /// Runs `body`, calling `onSignal` at each of the signals that comes meanwhile. The watch is a
    /// child task of this scope: it is cancelled when `body` returns or throws, and awaited, so
    /// no task is left watching once the screen it stops has gone.
    public func whileRunning<T>(_ onSignal: @escaping @Sendable () -> Void, _ body: () async throws -> T) async throws -> T {
        let signals = self.signals
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in signals { onSignal() } }
            defer { group.cancelAll() }
            return try await body()
        }
    }
}

private final class SourceBox: @unchecked Sendable {
    // Only touched at termination, once.
    private let sources: [DispatchSourceSignal]
    init(_ sources: [DispatchSourceSignal]) { self.sources = sources }
    func cancel() { sources.forEach { $0.cancel() } }
}
