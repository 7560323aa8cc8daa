import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomPanel
import IntercomImaging
import IntercomHTTP
import IntercomTestSupport
import IntercomBase

/// An https panel with a self-signed certificate (openssl s_server): refused by default with a
/// message that says how to trust it; trusted through `ca_file`; accepted blindly with `tls_insecure`.
@Suite("security: https panels", .serialized) struct PanelTLSVerificationTests {
    /// `openssl s_server -www` on 127.0.0.1:<free port>: any GET gets an HTML status page.
    static func httpsServer(_ certificates: TestCertificates) async throws -> (Subprocess, UInt16) {
        let port = try FreePort.udpAndTCP()
        let server = try Subprocess("openssl", ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificates.server.certificate,
                                                "-key", certificates.server.key, "-www", "-quiet"],
                                    name: "s_server", logDirectory: certificates.directory.url)
        let accepting = await TestPatience.eventually(within: .seconds(10), every: .milliseconds(50)) {
            TCPProbe.accepts(port: port) || !server.isRunning
        }
        guard accepting, server.isRunning else { throw HarnessError("openssl s_server did not start" + server.combinedOutput) }
        return (server, port)
    }

    @Test("self-signed https panel: refused by default, trusted by ca_file, accepted by tls_insecure")
    func certificateVerification() async throws {
        let certificates = try await TestCertificates(directory: TestDirectory(prefix: "intercom-https"))
        let (server, port) = try await Self.httpsServer(certificates)
        defer { server.kill() }
        let url = "https://127.0.0.1:\(port)"

        let strict = try BewardPanel(panelConfig: PanelConfig(name: "strict", url: url, password: "pw"))
        let refused = await panelError { () async throws(PanelError) in try await strict.snapshot() }
        guard case .unreachable(let why) = refused else {
            Issue.record("expected a refused certificate, got \(String(describing: refused))")
            return
        }
        #expect(why.contains("certificate") && why.contains("ca_file") && why.contains("tls_insecure"), "\(why)")

        // Past TLS, s_server answers an HTML page: "not a JPEG" proves the handshake was accepted.
        for (name, panel) in [("pinned", PanelConfig(name: "pinned", url: url, password: "pw", caFile: certificates.server.certificate)),
                              ("insecure", PanelConfig(name: "insecure", url: url, password: "pw", tlsInsecure: true))] {
            let client = try BewardPanel(panelConfig: panel)
            let error = await panelError { () async throws(PanelError) in try await client.snapshot() }
            guard case .badData(let text) = error else {
                Issue.record("\(name): expected the TLS handshake to pass, got \(String(describing: error))")
                continue
            }
            #expect(text.contains("not a JPEG"), "\(name): \(text)")
        }

        // A CA that did not sign the panel's certificate does not help.
        let (otherCA, _) = try await certificates.clientCertificate(name: "unrelated")
        let wrongCA = try BewardPanel(panelConfig: PanelConfig(name: "wrongca", url: url, password: "pw", caFile: otherCA))
        let stillRefused = await panelError { () async throws(PanelError) in try await wrongCA.snapshot() }
        guard case .unreachable(let reason) = stillRefused, reason.contains("certificate") else {
            Issue.record("a wrong ca_file was accepted: \(String(describing: stillRefused))")
            return
        }
    }
}
