import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private no-auth kamailio registrar/proxy on 127.0.0.1:<free port> (UDP and TCP), stand-in for
/// the SIP server a Beward panel registers to; or, `onItsOwnAddress()`, on the SIP port 5060 of a
/// loopback address of its own (127.0.X.Y), where URIs without a port reach it as they reach a real one. Config per docs test-peers.md: no `alias`,
/// `gruu_enabled 0`, memory-only usrloc, record-route on INVITE, lookup("location"), t_relay.
///
/// Runs in the foreground (`-DD -E`) so the PID we launched is kamailio's main process;
/// SIGTERM to it takes the worker children down too.
///
/// Options: `password` makes REGISTER need digest auth with that password (any user, realm = the
/// To domain); `tls` adds a TLS listener on `tlsPort` serving that certificate (package
/// `kamailio-tls-modules`), which asks for no client certificate unless `tls.clientCA` is set.
package final class Kamailio: @unchecked Sendable {
    package struct TLS: Sendable {
        package var certificate: String
        package var key: String
        /// When set, a client must present a certificate signed by this CA.
        package var clientCA: String?

        package init(certificate: String, key: String, clientCA: String? = nil) {
            self.certificate = certificate
            self.key = key
            self.clientCA = clientCA
        }
    }

    /// The loopback address it listens on: 127.0.0.1 unless started `onItsOwnAddress()`.
    package let host: String
    package let port: UInt16
    /// The TLS listener's port when started with `tls`, else nil.
    package let tlsPort: UInt16?
    package let directory: TestDirectory
    package let configURL: URL

    private let peer = ManagedProcess(name: "kamailio")

    /// `sip:<host>:<port>`: the proxy/registrar address for peers.
    package var uri: String { "sip:\(host):\(port)" }
    /// `<host>:<port>`: the sipp remote-host argument.
    package var hostPort: String { "\(host):\(port)" }

    /// The `[sip]` section of a desk registered here as `desk` (every desk so registered rings: the
    /// proxy forks a call to `desk` to all of them), its own port free, any caller accepted.
    package var deskSIPSection: String {
        """
        [sip]
        listen = udp:127.0.0.1:0
        unknown_callers = accept
        account = sip:desk@\(hostPort)
        proxy = \(uri)
        """
    }

    package init(host: String = "127.0.0.1", port: UInt16? = nil, password: String? = nil, tls: TLS? = nil) throws {
        _ = try ExternalTool.path("kamailio")
        self.host = host
        self.port = try port ?? FreePort.udpAndTCP()
        directory = try TestDirectory(prefix: "intercom-kamailio")
        if let tls {
            try ExternalTool.requireFile(Kamailio.modules + "tls.so", package: "kamailio-tls-modules")
            let tlsPort = try FreePort.udpAndTCP()
            self.tlsPort = tlsPort
            let tlsConfig = try directory.write(Kamailio.tlsConfig(tls), to: "tls.cfg")
            configURL = try directory.write(
                Kamailio.config(host: host, port: self.port, password: password, tls: (tlsPort, tlsConfig.path)), to: "kamailio.cfg")
        } else {
            tlsPort = nil
            configURL = try directory.write(Kamailio.config(host: host, port: self.port, password: password), to: "kamailio.cfg")
        }
        _ = try directory.subdirectory("run")
    }

    /// A kamailio on 5060 (UDP and TCP) of a loopback address no one else holds, 127.0.X.Y, chosen
    /// at random. A SIP URI without a port means 5060, and liblinphone 5.1 drops the port of the
    /// target's URI from the Refer-To of an attended transfer (it copies the consultation's To,
    /// which it writes without one): the panel then calls the target at 5060 of its host, so the
    /// target's server must sit there, as a real one does.
    package static func onItsOwnAddress(password: String? = nil) throws -> Kamailio {
        let host = try FreePort.loopbackHostWithFreePort(5060)
        return try Kamailio(host: host, port: 5060, password: password)
    }

    /// `sip:<host>:<tlsPort>;transport=tls`: the TLS proxy address for peers.
    package var tlsURI: String? { tlsPort.map { "sip:\(host):\($0);transport=tls" } }

    package static let modules = "/usr/lib/x86_64-linux-gnu/kamailio/modules/"

    package static func tlsConfig(_ tls: TLS) -> String {
        let verifyClients = tls.clientCA != nil ? "yes" : "no"
        return """
        [server:default]
        method = TLSv1.2+
        verify_certificate = \(verifyClients)
        require_certificate = \(verifyClients)
        private_key = \(tls.key)
        certificate = \(tls.certificate)
        \(tls.clientCA.map { "ca_list = \($0)" } ?? "")

        [client:default]
        verify_certificate = no
        require_certificate = no

        """
    }

    /// Starts kamailio and waits until it answers an OPTIONS on UDP.
    package func start(timeout: Duration = TestPatience.condition) async throws {
        let host = self.host, port = self.port
        try await peer.start(
            "kamailio",
            [
                "-f", configURL.path,
                "-P", directory.file("kamailio.pid").path,
                "-Y", directory.file("run").path,
                "-DD",  // no daemonizing: the launched PID stays kamailio's main process
                "-E",  // log to stderr (our log file)
                "-m", "32", "-M", "4",  // small shm/pkg so parallel tests stay light
            ],
            workingDirectory: directory.url, logDirectory: directory.url,
            waitingFor: "kamailio to answer OPTIONS on \(hostPort)", timeout: timeout, every: .milliseconds(50)) {
            Kamailio.probe(host: host, port: port)
        }
    }

    /// SIGTERM (then SIGKILL) and wait for exit; registrations (memory-only) are lost.
    package func stop() async { await peer.stop() }

    /// Hard crash simulation: SIGKILL to the main process and its group (all workers), no clean shutdown.
    package func kill() async { await peer.kill() }

    /// Stop, then start again on the same port (fault tests: registrar goes away and comes back).
    package func restart(timeout: Duration = TestPatience.condition) async throws {
        await stop()
        try await start(timeout: timeout)
    }

    package var isRunning: Bool { peer.isRunning }

    /// PID of the main process (it leads the process group of all workers), while started.
    package var pid: pid_t? { peer.pid }

    /// All kamailio output so far, across restarts.
    package var log: String { peer.log }

    /// The whole config. Only `listen=` lines, no `alias=`: an alias without port would make every
    /// 127.0.0.1 port "myself" and kamailio would swallow in-dialog ACK/BYE meant for the phones.
    package static func config(host: String = "127.0.0.1", port: UInt16, password: String? = nil,
                               tls: (port: UInt16, config: String)? = nil) -> String {
        let tlsLines = tls.map { "enable_tls=yes\nlisten=tls:\(host):\($0.port)" } ?? ""
        let tlsModule = tls.map { "loadmodule \"tls.so\"\nmodparam(\"tls\", \"config\", \"\($0.config)\")" } ?? ""
        let authModule = password == nil ? "" : "loadmodule \"auth.so\""
        // pv_auth_check compares the digest against this plain password; $td: realm = To domain.
        let authCheck = password.map {
            "if (!pv_auth_check(\"$td\", \"\($0)\", \"0\", \"1\")) { auth_challenge(\"$td\", \"0\"); exit; }"
        } ?? ""
        return """
        #!KAMAILIO
        debug=2
        log_stderror=yes
        fork=yes
        children=1
        tcp_children=1
        auto_aliases=no
        dns=no
        rev_dns=no
        listen=udp:\(host):\(port)
        listen=tcp:\(host):\(port)
        \(tlsLines)
        mpath="\(modules)"
        \(tlsModule)
        loadmodule "tm.so"
        loadmodule "sl.so"
        loadmodule "rr.so"
        loadmodule "pv.so"
        loadmodule "maxfwd.so"
        loadmodule "textops.so"
        loadmodule "siputils.so"
        loadmodule "usrloc.so"
        loadmodule "registrar.so"
        loadmodule "xlog.so"
        \(authModule)
        modparam("usrloc", "db_mode", 0)
        modparam("rr", "append_fromtag", 1)
        modparam("registrar", "gruu_enabled", 0)
        request_route {
            if (!mf_process_maxfwd_header("10")) { sl_send_reply("483", "Too Many Hops"); exit; }
            if (has_totag()) {
                if (loose_route()) { t_relay(); exit; }
                if (is_method("ACK")) { if (t_check_trans()) { t_relay(); } exit; }
                sl_send_reply("404", "Not here");
                exit;
            }
            if (is_method("CANCEL")) { if (t_check_trans()) { t_relay(); } exit; }
            if (is_method("OPTIONS") && uri == myself && $rU == $null) { sl_send_reply("200", "OK"); exit; }
            if (is_method("REGISTER")) {
                \(authCheck)
                xlog("L_INFO", "register $ct via $pr\\n");
                save("location"); exit;
            }
            if (is_method("INVITE|SUBSCRIBE")) { record_route(); }
            if (uri == myself) {
                if (!lookup("location")) { sl_send_reply("404", "Not Found"); exit; }
            }
            xlog("L_INFO", "relay $rm $ru\\n");
            if (!t_relay()) { sl_reply_error(); }
            exit;
        }

        """
    }

    /// Sends one SIP OPTIONS over UDP and waits briefly for any response.
    package static func probe(host: String = "127.0.0.1", port: UInt16, wait: Duration = .milliseconds(200)) -> Bool {
        guard let holder = try? UDPPortHolder() else { return false }
        // The holder closes its socket at deinit: keep it until the reply is read.
        defer { withExtendedLifetime(holder) {} }
        let fd = holder.fd, localPort = holder.port
        let ms = Int(wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)
        var tv = timeval(tv_sec: ms / 1000, tv_usec: (ms % 1000) * 1000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let branch = "z9hG4bK-probe-\(UInt32.random(in: 0...UInt32.max))"
        let message =
            "OPTIONS sip:\(host):\(port) SIP/2.0\r\n"
            + "Via: SIP/2.0/UDP 127.0.0.1:\(localPort);branch=\(branch);rport\r\n"
            + "Max-Forwards: 70\r\n"
            + "From: <sip:probe@127.0.0.1:\(localPort)>;tag=probe\r\n"
            + "To: <sip:\(host):\(port)>\r\n"
            + "Call-ID: \(branch)@127.0.0.1\r\n"
            + "CSeq: 1 OPTIONS\r\n"
            + "Content-Length: 0\r\n\r\n"
        let bytes = Array(message.utf8)
        let sent = LoopbackAddress.with(host, port: port) { sendto(fd, bytes, bytes.count, 0, $0, $1) }
        guard sent == bytes.count else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let got = recv(fd, &buffer, buffer.count, 0)
        guard got > 0 else { return false }
        return String(decoding: buffer[0..<got], as: UTF8.self).hasPrefix("SIP/2.0 ")
    }
}
