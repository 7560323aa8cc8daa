import Foundation
import IntercomBase
import Synchronization

/// The MQTT client as the rest of the program sees it: Sendable, no C types. libmosquitto runs on
/// one thread of ours (`MosquittoSession`), which sleeps in poll() on the broker's socket and a
/// wake pipe; every call here posts a job to that thread. Our own thread rather than
/// `mosquitto_loop_start`: the session's state (the queue, back-off, the held phase after a
/// connect) is touched by that one thread only, reconnects and their back-off are ours to report
/// in one clear line, and an idle daemon wakes once a second at most.
public final class MQTTClient: Sendable {
    typealias Job = @Sendable (MosquittoSession) -> Void

    public let events: AsyncStream<MQTTClientEvent>
    private let continuation: AsyncStream<MQTTClientEvent>.Continuation
    private let jobs = Mutex<[Job]>([])
    private let wake = WakePipe()
    private let done = Mutex<CheckedContinuation<Void, Never>?>(nil)
    private let finished = Mutex(false)
    private let options: MQTTClientOptions

    public init(options: MQTTClientOptions) {
        self.options = options
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Starts the thread; the first connect is tried at once.
    public func start() {
        let thread = Thread { [self] in
            let session = MosquittoSession(options: options, emit: { [continuation] in continuation.yield($0) })
            session.run(wake: wake, takeJobs: { self.jobs.withLock { pending in defer { pending = [] }; return pending } })
            continuation.finish()
            finished.withLock { $0 = true }
            done.withLock { $0 }?.resume()
        }
        thread.name = "intercom.mqtt"
        thread.start()
    }

    public func publish(_ message: MQTTMessage) {
        post { $0.publish(message) }
    }

    /// Sends the messages held back since `connected` (see `MQTTClientEvent.connected`).
    public func release() {
        post { $0.release() }
    }

    /// Publishes `last` (e.g. `offline`, retained) and waits up to 2 s for the broker to have it,
    /// then disconnects cleanly (so the broker discards the will) and ends the thread.
    public func stop(last: [MQTTMessage] = []) async {
        post { $0.stop(last: last) }
        await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
            let already = finished.withLock { isDone -> Bool in
                if !isDone { done.withLock { $0 = resume } }
                return isDone
            }
            if already { resume.resume() }
        }
    }

    private func post(_ job: @escaping Job) {
        jobs.withLock { $0.append(job) }
        wake.wake()
    }
}
