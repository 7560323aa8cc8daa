import Foundation
import IntercomCore
#if canImport(Glibc)
import Glibc
#endif
import IntercomBase

/// The daemon's control socket (docs/DAEMON.md: Control socket): a Unix stream socket, 0600 in a
/// 0700 directory, JSON lines both ways, any number of clients, each with its own bounded outbox.
public final class ControlServer: @unchecked Sendable {
    public let path: String
    private let intercom: Intercom
    private let logger: Logger
    private let ownUID: UInt32
    private let credentials: @Sendable (Int32) -> PeerCredentials?
    private let outboxLimit: Int
    // Under `lock`.
    private let lock = NSLock()
    private var listenFD: Int32 = -1
    private var connections: [Int: ControlConnection] = [:]
    private var nextNumber = 0
    private var stopping = false
    /// The connections `stop` dropped, for `settle`.
    private var closing: [ControlConnection] = []
    private let acceptDone = DispatchSemaphore(value: 0)
    private let shared: ScreensShared

    /// `credentials` reads the peer of a connection (SO_PEERCRED); tests replace it with a double.
    public init(path: String, intercom: Intercom, logger: Logger, ownUID: UInt32 = getuid(),
                outboxLimit: Int = 1 << 20,
                credentials: (@Sendable (Int32) -> PeerCredentials?)? = nil) {
        self.path = path
        self.intercom = intercom
        self.shared = ScreensShared()
        self.logger = logger
        self.ownUID = ownUID
        self.outboxLimit = outboxLimit
        self.credentials = credentials ?? { UnixSocket.peerCredentials($0) }
    }

    /// Number of clients connected now.
    public var clientCount: Int { lock.withLock { connections.count } }

    /// Number of screens attached now (`attach` requests of connections still open).
    public var screenCount: Int { shared.screens.count }

    /// Picture lines encoded so far for attached screens: one per picture and size, however many
    /// screens show it (tests and the bench read it).
    public var picturesEncoded: Int { shared.pictures.encodes }

    /// Shared picture slots in use now (one per source and size some screen subscribes to).
    public var pictureSlots: Int { shared.pictures.count }

    /// Binds and starts accepting. Throws `.alreadyRunning` when another daemon answers on the path.
    public func start() throws(ControlError) {
        let directory = (path as NSString).deletingLastPathComponent
        // The /tmp fallback (no XDG_RUNTIME_DIR) is a shared space: use it only if it is ours alone.
        do {
            try PrivateDirectory.ensureIfFallback(directory, uid: ownUID)
        } catch {
            throw .unsafeDirectory(error.description)
        }
        if !directory.isEmpty && !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw .system("mkdir \(directory)", errno)
            }
        }
        guard var address = UnixSocket.address(path) else { throw .pathTooLong(path) }
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path) }
            // A socket file is either a live daemon or the leftover of one killed with -9.
            if case .success(let fd) = UnixSocket.connect(path) {
                Glibc.close(fd)
                throw .alreadyRunning(path)
            }
            unlink(path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system("socket", errno) }
        // The socket file is born 0600: no window in which another user could connect.
        let oldMask = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        let bindErrno = errno
        umask(oldMask)
        guard bound == 0 else {
            Glibc.close(fd)
            throw .system("bind \(path)", bindErrno)
        }
        chmod(path, 0o600)
        guard listen(fd, 16) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .system("listen \(path)", code)
        }
        lock.withLock { listenFD = fd }
        Thread { [self] in acceptLoop(fd) }.start()
        logger.info("control socket listening on \(path)")
    }

    private func acceptLoop(_ fd: Int32) {
        var backOff = AcceptBackOff()
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 {
                let code = errno
                if lock.withLock({ stopping }) { break }
                if code == EINTR || code == ECONNABORTED { continue }
                // Out of descriptors (EMFILE, ENFILE) or memory: the clients waiting in the backlog
                // are served once some close. Ending the loop here would leave every later
                // `intercom ctl` hanging on a socket nobody accepts on.
                let (pause, report) = backOff.failed(at: ContinuousClock.now)
                if report {
                    logger.warning("control socket: accept failed: \(String(cString: strerror(code))); "
                        + "retrying (raise the open-files limit if this repeats)")
                }
                Thread.sleep(forTimeInterval: pause)
                continue
            }
            backOff.succeeded()
            // Glibc's accept4 is not visible to Swift; hooks must not inherit client connections.
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let number = lock.withLock { () -> Int in
                nextNumber += 1
                return nextNumber
            }
            let peer = credentials(client)
            let connection = ControlConnection(fd: client, number: number, intercom: intercom, logger: logger,
                                               outboxLimit: outboxLimit, shared: shared, peerPID: peer?.pid,
                                               peerUser: peer.map { FaceIdentity.userName(uid: $0.uid) }) { [weak self] number in
                _ = self?.lock.withLock { self?.connections.removeValue(forKey: number) }
            }
            if let refusal = PeerPolicy.refusal(for: peer, ownUID: ownUID) {
                logger.warning("control socket: \(refusal)")
                connection.refuse(refusal)
                continue
            }
            lock.withLock { connections[number] = connection }
            connection.start()
        }
        acceptDone.signal()
    }

    /// Stops accepting, drops every client and removes the socket file. `settle` then awaits
    /// what the clients' requests were doing.
    public func stop() {
        let (fd, open) = lock.withLock { () -> (Int32, [ControlConnection]) in
            defer { listenFD = -1 }
            if listenFD >= 0 { stopping = true }
            closing = Array(connections.values)
            return (listenFD, closing)
        }
        guard fd >= 0 else { return }
        // shutdown wakes the thread blocked in accept; only then is the descriptor closed.
        shutdown(fd, Int32(SHUT_RDWR))
        acceptDone.wait()
        Glibc.close(fd)
        unlink(path)
        for connection in open { connection.close() }
    }

    /// After `stop`: returns once the tasks of the connections it dropped have returned.
    public func settle() async {
        for connection in lock.withLock({ closing }) { await connection.settle() }
    }
}
