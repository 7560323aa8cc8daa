import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport
import IntercomPhoneTestSupport

/// The real daemon's control socket: born 0600 in a 0700 directory, and even with both loosened by
/// hand, a client of another uid is refused by the SO_PEERCRED check. Needs root to become
/// another user (CI runs as root).
@Suite("security: control socket access", .removesTestFolders) struct ControlSocketAccessTests {
    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    @Test("0600 socket in a 0700 directory; another uid is refused even when the modes are loosened",
          .enabled(if: getuid() == 0, "needs root to run a client as another user"))
    func otherUsersAreRefused() async throws {
        let daemon = try DaemonProcess(config: "[sip]\nlisten = udp:127.0.0.1:0\n", name: "sockperm")
        try await daemon.waitUntilStarted()
        let socketDirectory = daemon.directory.path + "/run/intercom"
        let socketPath = socketDirectory + "/control.sock"
        #expect(Self.mode(socketPath) == 0o600, "socket mode \(String(Self.mode(socketPath) ?? 0, radix: 8))")
        #expect(Self.mode(socketDirectory) == 0o700, "directory mode \(String(Self.mode(socketDirectory) ?? 0, radix: 8))")

        // Take the file-system fence down, so that only the peer check stands.
        for path in [daemon.directory.path, daemon.directory.path + "/run", socketDirectory] { chmod(path, 0o755) }
        chmod(socketPath, 0o666)
        let client = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(sys.argv[1])
            try:
                s.sendall(b'{"command":"status","id":1}\\n')
            except BrokenPipeError:
                pass  # refused peers are answered and cut off at once
            print(s.makefile().readline().strip())
            """
        let python = "/usr/bin/python3"
        try ExternalTool.requireFile(python, package: "python3")
        let r = try await Subprocess.run("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "--",
                                                     python, "-c", client, socketPath],
                                         logDirectory: daemon.directory.url)
        #expect(r.stdout.contains("\"ok\":false") && r.stdout.contains("refused: uid 65534"), "\(r)")
        #expect(!r.stdout.contains("\"calls\""), "another user read the daemon's state: \(r.stdout)")
        #expect(daemon.log.contains("refused: uid 65534"), "\(daemon.log)")

        // The owner still gets in.
        let own = try await IntercomBinary.run(["ctl", "status", "--config", daemon.configURL.path], in: daemon.directory)
        #expect(own.status == 0 && own.stdout.contains("\"calls\""), "\(own)")
        await daemon.stop()
    }
}
