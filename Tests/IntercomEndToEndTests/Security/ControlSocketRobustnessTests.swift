import Foundation
import IntercomDaemon
import IntercomCore
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase
import IntercomPhone

/// The control socket under pressure and in doubtful places: the daemon out of descriptors keeps
/// its accept loop, `intercom ctl` gives up with one line (exit 69) when nobody answers, refuses a
/// socket another user serves, and the /tmp fallback directory is used only when it is ours alone.
@Suite("security: control socket robustness", .removesTestFolders) struct ControlSocketRobustnessTests {
    /// A Unix socket listening at `path` that never accepts: connections wait in its backlog.
    static func silentListener(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0, var address = UnixAddress.make(path) else { throw HarnessError("socket failed") }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { close(fd); throw HarnessError("bind/listen \(path): errno \(errno)") }
        return fd
    }

    /// A raw client connection to `path` (nil when connect fails).
    static func rawClient(_ path: String) -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0, var address = UnixAddress.make(path) else { return nil }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if result != 0 { close(fd); return nil }
        return fd
    }

    static func openDescriptors(_ pid: pid_t) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).count
    }

    @Test("ctl against a socket that accepts nothing: one line, exit 69, within the timeout (status and events)")
    func ctlTimesOut() async throws {
        let directory = try TestDirectory(prefix: "intercom-ctl-timeout")
        let path = directory.path + "/silent.sock"
        let listener = try Self.silentListener(path)
        defer { close(listener) }
        for action in ["status", "events"] {
            let start = ContinuousClock.now
            let r = try await IntercomBinary.run(["ctl", action, "--socket", path, "--timeout", "0.5"], in: directory)
            let elapsed = ContinuousClock.now - start
            #expect(r.status == 69, "\(action): \(r)")
            #expect(r.stderr.contains("did not answer within 0.5 s") && r.stderr.split(separator: "\n").count == 1, "\(action): \(r)")
            #expect(elapsed < .seconds(5), "\(action) took \(elapsed)")
        }
        let bad = try await IntercomBinary.run(["ctl", "status", "--socket", path, "--timeout", "soon"], in: directory)
        #expect(bad.status == 64 && bad.stderr.contains("--timeout takes seconds"), "\(bad)")
    }

    @Test("ctl refuses a socket served by another uid", .enabled(if: getuid() == 0, "needs root to run ctl as another user"))
    func ctlRefusesForeignDaemon() async throws {
        let directory = try TestDirectory(prefix: "intercom-ctl-foreign")
        chmod(directory.path, 0o755)
        let path = directory.path + "/root.sock"
        let listener = try Self.silentListener(path)
        defer { close(listener) }
        chmod(path, 0o666)
        let r = try await Subprocess.run("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "--",
                                                     try IntercomBinary.path(), "ctl", "status", "--socket", path],
                                         environment: ["HOME": directory.path], logDirectory: directory.url)
        #expect(r.status == 69 && r.stderr.contains("is served by uid 0, not by your user (uid 65534)"), "\(r)")
    }

    @Test("the daemon out of descriptors keeps accepting once clients leave; the failure is logged, not repeated")
    func acceptSurvivesEMFILE() async throws {
        let daemon = try DaemonProcess(config: "[sip]\nlisten = udp:127.0.0.1:0\n", name: "emfile")
        try await daemon.waitUntilStarted()
        let socketPath = daemon.directory.path + "/run/intercom/control.sock"
        let pid = daemon.process.pid
        // Leave the daemon a handful of spare descriptors, then take them all with idle clients.
        let limit = Self.openDescriptors(pid) + 4
        let prlimit = try await Subprocess.run("prlimit", ["--pid", "\(pid)", "--nofile=\(limit):\(limit)"],
                                               logDirectory: daemon.directory.url)
        #expect(prlimit.status == 0, "\(prlimit)")
        var clients: [Int32] = []
        for _ in 0..<12 { if let fd = Self.rawClient(socketPath) { clients.append(fd) } }
        await TestPatience.eventually(within: .seconds(5), every: .milliseconds(50)) { daemon.process.stderr.contains("accept failed") }
        #expect(daemon.process.stderr.contains("accept failed: Too many open files"), "\(daemon.log)")
        // While stuck, ctl gives up in time instead of hanging.
        let stuck = try await IntercomBinary.run(["ctl", "status", "--socket", socketPath, "--timeout", "0.5"], in: daemon.directory)
        #expect(stuck.status == 69 && stuck.stderr.contains("did not answer"), "\(stuck)")
        try await Task.sleep(for: .seconds(2))
        for fd in clients { close(fd) }
        // The loop is back: ctl answers.
        let answered = try await TestPatience.eventually(within: .seconds(5), every: .milliseconds(250)) {
            let r = try await IntercomBinary.run(["ctl", "status", "--socket", socketPath, "--timeout", "2"], in: daemon.directory)
            return r.status == 0 && r.stdout.contains("\"calls\"")
        }
        #expect(answered, "\(daemon.log)")
        let reports = daemon.process.stderr.components(separatedBy: "accept failed").count - 1
        #expect(reports == 1, "logged \(reports) times in ~3 s\n\(daemon.log)")
        #expect(daemon.process.isRunning)
        await daemon.stop()
    }

    @Test("a fallback directory of another owner, too open, or a symlink is refused; a fresh one is made 0700")
    func fallbackDirectoryIsChecked() throws {
        let directory = try TestDirectory(prefix: "intercom-fallback")
        let uid = getuid()
        let fresh = directory.path + "/fresh/intercom-\(uid)"
        try PrivateDirectory.ensure(fresh, uid: uid)
        var info = stat()
        #expect(lstat(fresh, &info) == 0 && info.st_mode & 0o777 == 0o700)
        try PrivateDirectory.ensure(fresh, uid: uid)

        #expect(throws: PrivateDirectoryError.wrongOwner(fresh, owner: uid, uid: uid &+ 4242)) {
            try PrivateDirectory.ensure(fresh, uid: uid &+ 4242)
        }
        let open = directory.path + "/open"
        mkdir(open, 0o700)
        chmod(open, 0o755)
        #expect(throws: PrivateDirectoryError.tooOpen(open, mode: 0o755)) { try PrivateDirectory.ensure(open, uid: uid) }
        let link = directory.path + "/link"
        symlink(fresh, link)
        #expect(throws: PrivateDirectoryError.notADirectory(link)) { try PrivateDirectory.ensure(link, uid: uid) }
        #expect(PrivateDirectoryError.tooOpen(open, mode: 0o755).description.contains("refusing to use it"))
    }

    @Test("the control server and the phone refuse a /tmp/intercom-UID they do not own",
          .enabled(if: getuid() == 0, "needs root to make a directory owned by someone else"))
    func serverRefusesForeignFallback() throws {
        // A uid nobody on this machine uses, so the shared path touches no one's files.
        let uid = UInt32.random(in: 3_000_000...3_900_000)
        let fallback = XDGDirectories.fallback(uid: uid)
        #expect(mkdir(fallback, 0o700) == 0, "errno \(errno)")
        defer { rmdir(fallback) }
        let config = IntercomConfig(daemon: DaemonSettings(socketPath: fallback + "/control.sock"))
        let intercom = Intercom(config: config, phoneSettings: PhoneSettings(config: config, environment: [:]), logger: .silent)
        let server = ControlServer(path: fallback + "/control.sock", intercom: intercom, logger: .silent, ownUID: uid)
        #expect(throws: ControlError.unsafeDirectory(PrivateDirectoryError.wrongOwner(fallback, owner: 0, uid: uid).description)) {
            try server.start()
        }
        #expect(!FileManager.default.fileExists(atPath: fallback + "/control.sock"))
        var settings = PhoneSettings(config: config, environment: [:])
        settings.dataDirectory = fallback + "/intercom/sip"
        #expect(throws: PrivateDirectoryError.wrongOwner(fallback, owner: 0, uid: uid)) { try settings.checkPrivateFallback(uid: uid) }
    }
}

/// `sockaddr_un` for a test socket path.
enum UnixAddress {
    static func make(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }
}
