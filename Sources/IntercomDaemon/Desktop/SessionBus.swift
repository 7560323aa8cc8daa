import CSystemd
import Foundation
import IntercomBase
import Synchronization

/// One connection to the user's session bus through sd-bus, on a thread of its own: sd-bus objects
/// are not thread-safe, so the connection, its method calls and its signal matches live on that
/// thread, which sleeps in poll() on the bus socket and a wake pipe (an idle daemon is not woken
/// by it). Every call here posts a job to the thread; signals arrive on `signals`.
final class SessionBus: Sendable {
    struct Method: Sendable {
        var destination: String
        var path: String
        var interface: String
        var member: String
        var arguments: [BusValue]
    }

    /// A method's reply: its values and who sent it (the unique name of the name's owner).
    struct Reply: Sendable {
        var sender: String?
        var values: [BusValue]
    }

    struct Signal: Sendable {
        var sender: String?
        var interface: String
        var member: String
        var values: [BusValue]
    }

    typealias Job = @Sendable (BusConnection) -> Void

    /// Signals of every `watch`ed interface; ends when the connection closes or is lost.
    let signals: AsyncStream<Signal>
    private let jobs = Mutex<[Job]>([])
    private let wake = WakePipe()
    private let closed = Mutex<(done: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    private init(signals: AsyncStream<Signal>) {
        self.signals = signals
    }

    /// Connects to the bus at `address` (a D-Bus address such as `unix:path=/run/user/1000/bus`)
    /// and says hello; throws when nothing answers there.
    static func connect(address: String) async throws(BusError) -> SessionBus {
        let (signals, emit) = AsyncStream<Signal>.makeStream(bufferingPolicy: .unbounded)
        let bus = SessionBus(signals: signals)
        let opened = await withCheckedContinuation { (resume: CheckedContinuation<Result<Void, BusError>, Never>) in
            let thread = Thread {
                KernelThreadName.set("intercom.dbus")
                let connection: BusConnection
                do throws(BusError) {
                    connection = try BusConnection(address: address, emit: { emit.yield($0) })
                } catch {
                    resume.resume(returning: .failure(error))
                    emit.finish()
                    bus.finished()
                    return
                }
                resume.resume(returning: .success(()))
                connection.run(wake: bus.wake, takeJobs: { bus.jobs.withLock { pending in defer { pending = [] }; return pending } })
                emit.finish()
                bus.finished()
            }
            thread.name = "intercom.dbus"
            thread.start()
        }
        try opened.get()
        return bus
    }

    /// Calls a method and waits for its reply (at most `timeout`).
    func call(_ method: Method, timeout: Duration = .seconds(2)) async throws(BusError) -> Reply {
        let result = await withCheckedContinuation { (resume: CheckedContinuation<Result<Reply, BusError>, Never>) in
            guard post({ resume.resume(returning: $0.call(method, timeout: timeout)) }) else {
                resume.resume(returning: .failure(BusError(message: "the session bus connection is closed")))
                return
            }
        }
        return try result.get()
    }

    /// Delivers the signals of `interface` at `path` on `signals` from now on.
    func watch(path: String, interface: String) async throws(BusError) {
        let result = await withCheckedContinuation { (resume: CheckedContinuation<Result<Void, BusError>, Never>) in
            guard post({ resume.resume(returning: $0.watch(path: path, interface: interface)) }) else {
                resume.resume(returning: .failure(BusError(message: "the session bus connection is closed")))
                return
            }
        }
        try result.get()
    }

    /// Flushes what is queued, closes the connection and waits for the thread to end.
    func close() async {
        _ = post { $0.stop() }
        await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
            let done = closed.withLock { state -> Bool in
                if !state.done { state.waiting.append(resume) }
                return state.done
            }
            if done { resume.resume() }
        }
    }

    /// False once the thread has ended (the job would never run).
    private func post(_ job: @escaping Job) -> Bool {
        let open = closed.withLock { state -> Bool in
            guard !state.done else { return false }
            jobs.withLock { $0.append(job) }
            return true
        }
        if open { wake.wake() }
        return open
    }

    private func finished() {
        let waiting = closed.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.done = true
            defer { state.waiting = [] }
            return state.waiting
        }
        // Jobs posted before the end are answered by their own failure path: none is left hanging.
        let orphans = jobs.withLock { pending in defer { pending = [] }; return pending }
        if !orphans.isEmpty { BusConnection.failAll(orphans) }
        for resume in waiting { resume.resume() }
    }
}
