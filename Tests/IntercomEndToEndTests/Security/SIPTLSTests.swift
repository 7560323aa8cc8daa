import Foundation
import IntercomCore
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase
import IntercomPhone

/// SIP over TLS with the real binary: a kamailio TLS registrar with a self-signed certificate,
/// trusted or not, asking for a client certificate or not, and a panel call carried over TLS.
@Suite("security: SIP over TLS", .serialized, .removesTestFolders) struct SIPTLSTests {
    static func daemonConfig(kamailio: Kamailio, extra: String) throws -> String {
        let proxy = try #require(kamailio.tlsURI)
        return """
            [sip]
            listen = udp:127.0.0.1:0
            account = sip:resident@127.0.0.1
            proxy = \(proxy)
            \(extra)

            [panel entrance]
            url = http://127.0.0.1:9
            match = sip:100001@
            auto_answer = on
            """
    }

    @Test("a TLS registrar with an untrusted certificate is refused by default, with a reason naming tls_ca")
    func untrustedRegistrarIsRefused() async throws {
        let certificates = try await TestCertificates(directory: TestDirectory(prefix: "intercom-tls-certs"))
        let kamailio = try Kamailio(tls: .init(certificate: certificates.server.certificate, key: certificates.server.key))
        try await kamailio.start()
        let daemon = try DaemonProcess(config: try Self.daemonConfig(kamailio: kamailio, extra: ""), name: "tls-untrusted")
        try await daemon.waitUntilStarted()
        let failed = try await daemon.waitForEvent("registration_failed", timeout: .seconds(15))
        let reason = failed.string("reason") ?? ""
        #expect(reason.contains("certificate") && reason.contains("tls_ca"), "unclear reason: \(failed)")
        try await Task.sleep(for: .milliseconds(500))
        #expect(!daemon.names.contains("registered"), "\(daemon.events)")
        // The handshake failed on our side: kamailio never saw a REGISTER.
        #expect(!kamailio.log.contains("register <sip:resident"), "\(kamailio.log)")
        await daemon.stop()
        let doctor = try await IntercomBinary.run(["doctor", "--config", daemon.configURL.path], in: daemon.directory,
                                                  timeout: .seconds(30))
        #expect(doctor.status == 69 && doctor.stdout.contains("self-signed certificate") && doctor.stdout.contains("tls_ca"),
                "\(doctor.stdout)")

        // The explicit opt-out registers to the same registrar.
        let relaxed = try DaemonProcess(config: try Self.daemonConfig(kamailio: kamailio, extra: "tls_verify = off"),
                                        name: "tls-noverify")
        try await relaxed.waitUntilStarted()
        try await relaxed.waitForEvent("registered", timeout: .seconds(10))
        await relaxed.stop()
        await kamailio.stop()
    }

    @Test("trusted through tls_ca: registers over TLS, and a liblinphone panel's call over TLS is answered")
    func callOverTLS() async throws {
        let certificates = try await TestCertificates(directory: TestDirectory(prefix: "intercom-tls-certs"))
        let kamailio = try Kamailio(tls: .init(certificate: certificates.server.certificate, key: certificates.server.key))
        try await kamailio.start()
        let daemon = try DaemonProcess(
            config: try Self.daemonConfig(kamailio: kamailio, extra: "tls_ca = \(certificates.server.certificate)"),
            name: "tls-call")
        try await daemon.waitUntilStarted()
        try await daemon.waitForEvent("registered", timeout: .seconds(10))
        #expect(kamailio.log.contains("register <sip:resident@") && kamailio.log.contains("transport=tls"),
                "the daemon's contact is not a TLS one\n\(kamailio.log)")

        // The panel: a liblinphone core that reaches the same registrar over TLS only.
        let proxy = try #require(kamailio.tlsURI)
        let settings = PhoneSettings(
            listen: [ListenAddress(transport: .udp, host: "127.0.0.1", port: 0)],
            account: SIPAccount(identity: "sip:100001@127.0.0.1", proxy: proxy),
            dataDirectory: PhoneTestSupport.tempDirectory("tls-panel"), user: "100001",
            audio: .files(play: nil, record: nil), video: .off,
            tls: SIPTLSSettings(caFile: certificates.server.certificate))
        let panel = try await Phone.start(settings, logger: .silent)
        let panelEvents = EventRecorder(panel.events)
        try await withCleanup({ await panel.stop() }) {
            _ = try await panelEvents.wait("panel registered") { event -> Bool? in
                if case .registration(_, .registered, _) = event { return true } else { return nil }
            }
            // The registrar's own TLS port in the address, so kamailio sees the call as its own to look up.
            let tlsPort = try #require(kamailio.tlsPort)
            let outgoing = try await panel.call("sip:resident@127.0.0.1:\(tlsPort);transport=tls", video: false)
            let media = try await panelEvents.wait("panel established", timeout: 15) { $0.established(outgoing) }
            #expect(media.audioCodec != nil)
            let incoming = try await daemon.waitForEvent("call_incoming")
            #expect(incoming.string("panel") == "entrance", "\(incoming)")
            DaemonEventChecks.expectFrom(incoming, startsWith: "sip:100001@")
            let answered = try await daemon.waitForEvent("call_answered")
            #expect(answered.string("by") == "auto", "\(answered)")
            try await panel.hangup(outgoing)
            let ended = try await daemon.waitForEvent("call_ended")
            #expect(ended.string("reason") == "remote_hangup", "\(ended)")
            // Both legs went through kamailio's TLS listener.
            #expect(kamailio.log.contains("relay INVITE sip:resident@127.0.0.1:") && kamailio.log.contains("transport=tls"),
                    "\(kamailio.log)")
            await daemon.stop()
            await kamailio.stop()
        }
    }

    @Test("a registrar that wants a client certificate accepts tls_cert/tls_key and refuses a daemon without them")
    func clientCertificate() async throws {
        let certificates = try await TestCertificates(directory: TestDirectory(prefix: "intercom-tls-certs"))
        let (ca, client) = try await certificates.clientCertificate()
        let kamailio = try Kamailio(tls: .init(certificate: certificates.server.certificate, key: certificates.server.key,
                                               clientCA: ca))
        try await kamailio.start()
        let trust = "tls_ca = \(certificates.server.certificate)"
        let without = try DaemonProcess(config: try Self.daemonConfig(kamailio: kamailio, extra: trust), name: "tls-nocert")
        try await without.waitUntilStarted()
        try await without.waitForEvent("registration_failed", timeout: .seconds(15))
        #expect(!without.names.contains("registered"), "\(without.events)")
        await without.stop()

        let with = try DaemonProcess(config: try Self.daemonConfig(
            kamailio: kamailio, extra: "\(trust)\ntls_cert = \(client.certificate)\ntls_key = \(client.key)"), name: "tls-cert")
        try await with.waitUntilStarted()
        try await with.waitForEvent("registered", timeout: .seconds(10))
        await with.stop()
        await kamailio.stop()
    }

    @Test("TLS settings that cannot work are config errors: exit 65, one line naming the key")
    func badTLSSettings() async throws {
        let dir = try TestDirectory(prefix: "intercom-tls-bad")
        let certificates = try await TestCertificates(directory: dir)
        let loose = dir.file("loose.key").path
        try FileManager.default.copyItem(atPath: certificates.server.key, toPath: loose)
        chmod(loose, 0o644)
        let notPEM = try dir.write("hello\n", to: "not-a-cert.pem").path
        let cases: [(String, String, String)] = [
            ("listen = tls:127.0.0.1:0", "listen", "TLS"),
            ("tls_cert = \(certificates.server.certificate)", "tls_cert", "tls_key"),
            ("tls_cert = \(certificates.server.certificate)\ntls_key = \(dir.path)/missing.key", "tls_key", "No such file"),
            ("tls_cert = \(certificates.server.certificate)\ntls_key = \(loose)", "tls_key", "chmod 600"),
            ("tls_ca = \(notPEM)", "tls_ca", "not a PEM"),
            ("tls_cert = \(certificates.server.key)\ntls_key = \(certificates.server.key)", "tls_cert", "not a PEM certificate"),
            ("tls_verify = sometimes", "tls_verify", "on or off"),
            ("media_encryption = zrtp", "media_encryption", "none | srtp | srtp_mandatory"),
        ]
        for (lines, key, words) in cases {
            let listen = lines.hasPrefix("listen") ? "" : "listen = udp:127.0.0.1:0\n"
            let config = try IntercomBinary.writeConfig("[sip]\n\(listen)\(lines)\n", in: dir)
            let r = try await IntercomBinary.run(["config", "--check", "--config", config.path], in: dir)
            let err = DaemonBadInputTests.lines(r.stderr)
            #expect(r.status == 65, "\(lines): \(r.stderr)")
            #expect(err.count == 1 && err.first?.contains("'\(key)'") == true && err.first?.contains(words) == true,
                    "\(lines): \(err)")
        }
    }
}
