import CCurl
import CCurlShim
import Foundation
import IntercomBase
import Synchronization

/// One thread that runs every HTTP transfer of the process: libcurl's multi interface, so a
/// hundred panels' alarm streams, snapshots and door calls cost one thread, not one each. A slow
/// or dead panel only holds its own transfer (each has its own timeouts), never the loop.
///
/// The multi handle, the easy handles and the transfers' state live on the loop thread; callers
/// post commands and are woken through their continuation. curl's callbacks (a stream's chunks)
/// run on the loop thread, so they must be short: hand the data on, don't work on it there.
public final class HTTPEventLoop: Sendable {
    private let inbox: LoopInbox
    private let ids = Atomic<UInt64>(0)

    /// The process's loop, started by the first client that asks. A static because one thread for
    /// all panels is the point; it lives as long as the process.
    public static func shared() throws(HTTPError) -> HTTPEventLoop {
        sharedStarted.store(true, ordering: .releasing)
        return try sharedLoop.get()
    }

    /// Stops the process's loop, if one was started, and waits up to `limit` for its thread to end.
    /// For a program's last step before it exits: exit's handlers free the C libraries' state
    /// (OpenSSL's locks among them) while other threads still run, and a transfer still inside curl
    /// then crashed the process (a `doctor` beside a daemon, SIGSEGV in pthread_rwlock_wrlock on this
    /// thread, after its report was printed).
    public static func stopShared(waiting limit: Duration = .seconds(1)) {
        guard sharedStarted.load(ordering: .acquiring), case .success(let loop) = sharedLoop else { return }
        _ = loop.stop(waiting: limit)
    }

    /// Ends the loop: what still runs or waits fails as cancelled, and its thread ends. Whether it
    /// ended within `limit` (a transfer inside curl finishes its step first). Nothing runs after.
    public func stop(waiting limit: Duration) -> Bool {
        inbox.post(.stop)
        return inbox.waitForEnd(limit)
    }

    /// Whether `shared()` was ever asked (the loop is made lazily, at that first ask).
    private static let sharedStarted = Atomic<Bool>(false)

    /// The loop thread's name, told apart from other threads in /proc/PID/task/*/comm.
    public static let threadName = "intercom.http"

    private static let sharedLoop = Result { () throws(HTTPError) -> HTTPEventLoop in try HTTPEventLoop() }

    /// A loop of its own (tests); its thread ends, cancelling what still runs, when it is released.
    public init(name: String = HTTPEventLoop.threadName) throws(HTTPError) {
        // libcurl is mapped here, by the process's first loop, not at start (CurlLibrary).
        let curl: CurlLibrary.Functions
        switch CurlLibrary.loaded {
        case .success(let functions): curl = functions
        case .failure(let error): throw .unavailable(error)
        }
        guard let multi = curl.c.multi_init() else {
            throw .setup(CurlFailure(code: CURLE_FAILED_INIT, message: "curl_multi_init failed"))
        }
        // Idle kept-alive connections of every panel stay in one cache; curl's default (4 per
        // added handle) would close them whenever few transfers happen to run.
        _ = intercom_curl_multi_setopt_long(curl.table, multi, CURLMOPT_MAXCONNECTS, 512)
        let inbox = LoopInbox(multi: multi, curl: curl)
        self.inbox = inbox
        let thread = Thread {
            KernelThreadName.set(name)
            CurlMultiLoop(inbox: inbox).run()
            inbox.threadEnded()
        }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit { inbox.post(.stop) }

    /// Transfers inside curl right now (queued ones not counted): a cancelled or finished transfer
    /// leaves this count at once.
    public var transfersInFlight: Int { inbox.running.load(ordering: .relaxed) }

    /// A fresh id for a client's channel or a transfer.
    func nextID() -> UInt64 { ids.add(1, ordering: .relaxed).newValue }

    func post(_ command: LoopCommand) { inbox.post(command) }
}
