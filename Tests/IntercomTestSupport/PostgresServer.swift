import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A private PostgreSQL 15 for one suite: `initdb` into a temp folder, listening on 127.0.0.1 on a
/// free port and on a unix socket in that folder, in the foreground so the PID we launched is the
/// postmaster's. The superuser `intercom` connects over the socket without a password (trust) and
/// over TCP with `password` (scram-sha-256), so a test can try both. `stop()` is a fast shutdown by
/// PID (SIGINT: clients are cut off, as in an outage), `start()` again serves the same folder.
/// Run as root, the server runs as the `postgres` user (PostgreSQL refuses root), and owns the folder.
package final class PostgresServer: @unchecked Sendable {
    package static let binaries = "/usr/lib/postgresql/15/bin"
    package let port: UInt16
    package let directory: TestDirectory
    package let password = "site-secret"
    private let peer = ManagedProcess(name: "postgres")
    /// The processes `freeze` stopped, for `thaw` (and `stop`, so a test that failed frozen still ends).
    private let frozen = Mutex<[Int32]>([])
    private let runAs: [String]

    /// A URI over the unix socket (no password): the database `database`, role `intercom`.
    package func socketURL(_ database: String = "postgres") -> String {
        "postgresql:///\(database)?host=\(directory.path)&port=\(port)&user=intercom"
    }

    /// A URI over TCP on loopback (the password needed).
    package func tcpURL(_ database: String = "postgres") -> String {
        "postgresql://intercom@127.0.0.1:\(port)/\(database)"
    }

    package init() async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binaries + "/initdb") else {
            throw HarnessError("PostgreSQL 15 is not installed (\(Self.binaries)/initdb is missing); run `make test`, "
                + "which installs postgresql-15 (scripts/install-deps.sh)")
        }
        port = try FreePort.udpAndTCP()
        directory = try TestDirectory(prefix: "intercom-postgres")
        if geteuid() == 0 {
            guard let user = getpwnam("postgres") else {
                throw HarnessError("running as root, PostgreSQL needs the `postgres` user, which postgresql-15 creates; run `make test`")
            }
            guard chown(directory.path, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                throw HarnessError("cannot give \(directory.path) to the postgres user: errno \(errno)")
            }
            runAs = ["/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--clear-groups", "--"]
        } else {
            runAs = []
        }
        let passwordFile = directory.file("superuser-password").path
        try password.write(toFile: passwordFile, atomically: false, encoding: .utf8)
        if geteuid() == 0, let user = getpwnam("postgres") { _ = chown(passwordFile, user.pointee.pw_uid, user.pointee.pw_gid) }
        let initdb = ["\(Self.binaries)/initdb", "-D", directory.file("data").path, "-U", "intercom", "--pwfile", passwordFile,
                      "--auth-local=trust", "--auth-host=scram-sha-256", "--locale=C", "-E", "UTF8", "--no-sync"]
        let result = try await Subprocess.run(runAs.first ?? initdb[0], Array((runAs + initdb).dropFirst()),
                                              logDirectory: directory.url, timeout: .seconds(120))
        guard result.status == 0 else { throw HarnessError("initdb failed (\(result.status)): \(result.stderr)\(result.stdout)") }
    }

    /// Starts the server and returns once it accepts connections.
    package func start(timeout: Duration = TestPatience.condition) async throws {
        let command = runAs + ["\(Self.binaries)/postgres", "-D", directory.file("data").path, "-k", directory.path,
                               "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
                               "-c", "dynamic_shared_memory_type=mmap", "-c", "log_min_messages=warning"]
        let port = self.port
        try await peer.start(command[0], Array(command.dropFirst()), workingDirectory: directory.url,
                             logDirectory: directory.url, waitingFor: "postgres on port \(port)", timeout: timeout) {
            TCPProbe.accepts(port: port)
        }
        try await peer.waitForOutput(containing: "ready to accept connections", timeout: timeout)
    }

    /// Freezes the server as a hung machine would (connected, but silent: sockets open, nothing
    /// answers): SIGSTOP to `pids` (a backend, by `pg_backend_pid()`), or to the postmaster and
    /// every process below it. By pid, never by name; `thaw` continues them.
    package func freeze(_ pids: [Int32]? = nil) throws {
        guard let postmaster = peer.pid else { throw HarnessError("cannot freeze PostgreSQL: it is not running") }
        let targets = pids ?? [postmaster] + ProcessTree.descendants(of: postmaster)
        for pid in targets where Glibc.kill(pid, SIGSTOP) != 0 {
            throw HarnessError("cannot SIGSTOP PostgreSQL's process \(pid): errno \(errno)")
        }
        frozen.withLock { $0 += targets }
    }

    /// SIGCONT to every process `freeze` stopped.
    package func thaw() {
        for pid in frozen.withLock({ list in defer { list = [] }; return list }) { _ = Glibc.kill(pid, SIGCONT) }
    }

    /// Fast shutdown by PID (SIGINT: open connections are cut), awaited; the folder stays for `start()`.
    package func stop() async {
        thaw()
        guard let pid = peer.pid else { return }
        _ = Glibc.kill(pid, SIGINT)
        _ = await TestPatience.eventually(within: .seconds(20)) { !self.peer.isRunning }
        await peer.stop()
    }

    /// Runs SQL as the superuser over the socket with psql (`CREATE DATABASE`, a look at a table).
    @discardableResult
    package func psql(_ sql: String, database: String = "postgres") async throws -> String {
        let result = try await Subprocess.run("\(Self.binaries)/psql",
                                              ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", directory.path,
                                               "-p", String(port), "-U", "intercom", "-d", database, "-c", sql],
                                              logDirectory: directory.url)
        guard result.status == 0 else { throw HarnessError("psql \(sql): \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A fresh, empty database; returns its name.
    package func createDatabase(_ name: String) async throws -> String {
        try await psql("CREATE DATABASE \(name)")
        return name
    }

    package var log: String { peer.log }

    /// Stops the server and removes the folder.
    package func remove() async {
        await stop()
        directory.remove()
    }
}
