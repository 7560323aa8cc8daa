import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport
import IntercomPhoneTestSupport

/// sd_notify as systemd sees it: a datagram socket at NOTIFY_SOCKET collects READY, WATCHDOG
/// pings (WATCHDOG_USEC set) and STOPPING from the real binary.
@Suite("daemon: sd_notify", .removesTestFolders) struct DaemonSystemdTests {
    @Test("READY=1 after start, WATCHDOG=1 pings, STOPPING=1 on SIGTERM, exit 0")
    func notifiesSystemd() async throws {
        let directory = try TestDirectory(prefix: "intercom-e2e-notify")
        let socketPath = directory.path + "/notify.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(socketPath.utf8))
            raw[socketPath.utf8.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        let config = try IntercomBinary.writeConfig("[sip]\nlisten = udp:127.0.0.1:0\n", in: directory)
        var env = try IntercomBinary.environment(in: directory)
        env["NOTIFY_SOCKET"] = socketPath
        env["WATCHDOG_USEC"] = "400000"
        env["WATCHDOG_PID"] = nil
        let daemon = try Subprocess(try IntercomBinary.path(), ["daemon", "--config", config.path], name: "notify",
                                    environment: env, workingDirectory: directory.url, logDirectory: directory.url)
        var messages: [String] = []
        let deadline = Date().addingTimeInterval(10)
        func receive() {
            var buffer = [UInt8](repeating: 0, count: 512)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { messages.append(String(decoding: buffer[0..<n], as: UTF8.self)) }
        }
        while Date() < deadline && messages.filter({ $0 == "WATCHDOG=1" }).count < 2 { receive() }
        #expect(messages.first?.hasPrefix("READY=1") == true, "\(messages)\n\(daemon.combinedOutput)")
        #expect(messages.filter { $0 == "WATCHDOG=1" }.count >= 2, "\(messages)")
        kill(daemon.pid, SIGTERM)
        let status = try await daemon.waitForExit(timeout: .seconds(5))
        for _ in 0..<5 { receive() }
        #expect(status == 0)
        #expect(messages.contains("STOPPING=1"), "\(messages)")
    }
}
