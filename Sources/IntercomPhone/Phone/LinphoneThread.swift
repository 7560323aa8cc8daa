import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one thread that runs liblinphone in this process. belle-sip and mediastreamer keep
/// process-wide state that is not safe across threads, so several cores (the client and the
/// simulated panel of `intercom demo`, or the phones of a test) share this thread and are
/// iterated in turn. Everything else reaches them by posting jobs.
final class LinphoneThread: Sendable {
    typealias Job = @Sendable (LinphoneThreadContext) -> Void

    /// The process's thread, started with the first phone. A static because the C state it
    /// guards exists once per process.
    static let shared = LinphoneThread()

    private let mailbox = Mailbox<Job>()
    /// The thread's pthread id once it runs (0 before): what `assertOnThread` compares with.
    private static let owner = Atomic<UInt>(0)

    /// Whether the caller is the phone thread (the read hook asks before it touches a guard).
    static var isCurrent: Bool { owner.load(ordering: .relaxed) == UInt(pthread_self()) }

    /// Traps in debug builds when called off the phone thread: liblinphone state is confined
    /// there, and this says so in code rather than in a comment (swift-nio's `assertInEventLoop`).
    static func assertOnThread(file: StaticString = #fileID, line: UInt = #line) {
        assert(isCurrent, "liblinphone touched off the phone thread", file: file, line: line)
    }

    private init() {
        let mailbox = self.mailbox
        let thread = Thread { LinphoneThread.run(mailbox) }
        thread.name = "intercom.linphone"
        thread.stackSize = 1 << 21
        thread.start()
    }

    func post(_ job: @escaping Job) { mailbox.post(job) }

    /// Jobs as they come, and SIP traffic the moment it arrives: the thread sleeps on the
    /// cores' SIP sockets, the stream sockets belle-sip reads SIP from, and the mailbox; between
    /// those it iterates at `IteratePace`'s interval (10 ms in a call, 500 ms when nothing has
    /// happened for 2 s). No wake-ups while no core exists.
    private static func run(_ mailbox: Mailbox<Job>) {
        owner.store(UInt(pthread_self()), ordering: .relaxed)
        let context = LinphoneThreadContext()
        var pace = IteratePace(watchesEverySIPSocket: SIPIngress.inPlace)
        while true {
            let interval = pace.interval(now: ProcessInfo.processInfo.systemUptime, hasCores: !context.drivers.isEmpty,
                                         hasCalls: context.hasCalls, untilNextTimer: context.untilNextTimer)
            let streams = SIPStreamSockets.watched()
            let wake = mailbox.take(timeout: interval, watching: context.wakeDescriptors + streams)
            if wake.woken { pace.noteActivity(at: ProcessInfo.processInfo.systemUptime) }
            for fd in wake.broken where streams.contains(fd) { SIPStreamSockets.forget(fd) }
            for job in wake.jobs { job(context) }
            context.iterateAll()
        }
    }
}

/// The phone thread's own state: the cores it runs. Only that thread touches it.
final class LinphoneThreadContext {
    final class Entry {
        let driver: LinphoneCoreDriver
        var stopDeadline: Date?
        var onStopped: [() -> Void] = []
        init(driver: LinphoneCoreDriver) { self.driver = driver }
    }

    var drivers: [Int: Entry] = [:]
    private var nextID = 0
    /// malloc's arena limit is set once, before the first core.
    var arenasLimited = false

    func add(_ driver: LinphoneCoreDriver) -> Int {
        nextID += 1
        drivers[nextID] = Entry(driver: driver)
        return nextID
    }

    func driver(_ id: Int) -> LinphoneCoreDriver? {
        guard let entry = drivers[id], entry.stopDeadline == nil else { return nil }
        return entry.driver
    }

    /// Ends the core's calls now; the core is destroyed once they are released (3 s at most).
    func stop(_ id: Int, then done: @escaping () -> Void) {
        guard let entry = drivers[id] else { return done() }
        entry.onStopped.append(done)
        if entry.stopDeadline == nil {
            entry.stopDeadline = Date().addingTimeInterval(3)
            entry.driver.terminateAll()
        }
    }

    /// The SIP sockets of every core, which wake the thread when a request arrives.
    var wakeDescriptors: [Int32] { drivers.values.flatMap { $0.driver.sipDescriptors } }

    var hasCalls: Bool { drivers.values.contains { $0.driver.hasCalls } }

    /// Seconds to the earliest timer any core set (`LinphoneCoreDriver.after`); nil: none.
    var untilNextTimer: TimeInterval? {
        drivers.values.compactMap { $0.driver.nextTimer }.min().map { $0.timeIntervalSinceNow }
    }

    func iterateAll() {
        for (id, entry) in drivers {
            entry.driver.iterate()
            if let deadline = entry.stopDeadline, !entry.driver.hasCalls || Date() > deadline {
                drivers.removeValue(forKey: id)
                entry.driver.teardown()
                for done in entry.onStopped { done() }
            }
        }
    }
}
