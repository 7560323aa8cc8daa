import Foundation
@testable import IntercomSimulator
@testable import IntercomHTTP
import Testing
@testable import IntercomPanel
import IntercomImaging
import IntercomTestSupport
import IntercomBase

/// `[panel] auth`: Digest only by default, so whoever sits on an http:// path cannot ask for Basic
/// and read the password; Basic only where the config allows it (docs/SECURITY.md, "Panel HTTP").
@Suite struct PanelHTTPAuthTests {
    @Test("a panel that asks for Basic only is refused with a clear error, and never receives the password")
    func basicOnlyPanelGetsNoPassword() async throws {
        let f = try PanelFixture(.init(auth: .basic), password: "never-on-the-wire")
        defer { f.server.stop() }
        let error = await panelError { () async throws(PanelError) in try await f.panel.snapshot() }
        #expect(error == .basicAuthOnly(panel: "test"))
        #expect(error?.exitCode == 77)
        let text = try #require(error?.description)
        #expect(text.contains("asked for Basic") && text.contains("auth = basic in [panel test]"), "\(text)")
        #expect(!text.contains("never-on-the-wire"))
        #expect(f.panel.authOffered == .basic)
        // The challenge came, and nothing answered it: no credentials of any kind reached the server.
        #expect(f.server.requestCount("401") >= 1)
        #expect(f.server.requestCount("authorization:basic") == 0)
        #expect(f.server.requestCount("authorization:digest") == 0)
        #expect(f.server.requestCount("images_cgi") == 0)
    }

    @Test("Digest is the default, also when the panel offers Basic beside it")
    func digestByDefault() async throws {
        for offered in [SimulatedPanelOptions.Auth.digest, .both] {
            let f = try PanelFixture(.init(auth: offered))
            defer { f.server.stop() }
            _ = try await f.panel.snapshot()
            #expect(f.server.requestCount("images_cgi") == 1)
            #expect(f.server.requestCount("authorization:digest") >= 1)
            #expect(f.server.requestCount("authorization:basic") == 0, "\(offered)")
            #expect(f.panel.authOffered.contains(.digest))
        }
    }

    @Test("auth = basic answers a Basic panel after its challenge, and still prefers Digest when offered")
    func basicWhenAllowed() async throws {
        let basic = try PanelFixture(.init(auth: .basic), auth: .basic)
        defer { basic.server.stop() }
        _ = try await basic.panel.snapshot()
        #expect(basic.server.requestCount("images_cgi") == 1)
        #expect(basic.server.requestCount("authorization:basic") >= 1)
        // Not sent up front: the first request went out bare and was challenged.
        #expect(basic.server.requestCount("401") >= 1)

        let both = try PanelFixture(.init(auth: .both), auth: .basic)
        defer { both.server.stop() }
        _ = try await both.panel.snapshot()
        #expect(both.server.requestCount("authorization:basic") == 0)
        #expect(both.server.requestCount("authorization:digest") >= 1)
    }

    @Test("the config's auth key reaches the HTTP client")
    func configReachesTheClient() async throws {
        let server = SimulatedPanelHTTPServer(options: .init(auth: .basic))
        try server.start()
        defer { server.stop() }
        let strict = try BewardPanel(panelConfig: PanelConfig(name: "strict", url: server.baseURL, password: "admin"))
        #expect(strict.configuration.auth == .digest)
        let error = await panelError { () async throws(PanelError) in try await strict.systemInfo() }
        #expect(error == .basicAuthOnly(panel: "strict"))

        var allowed = PanelConfig(name: "allowed", url: server.baseURL, password: "admin")
        allowed.auth = .basic
        let relaxed = try BewardPanel(panelConfig: allowed)
        #expect(try await relaxed.systemInfo()["DeviceModel"] != nil)
        #expect(server.requestCount("authorization:basic") >= 1)
    }

    @Test("WWW-Authenticate lines are read scheme by scheme, quoted commas included")
    func challengeParsing() {
        #expect(HTTPAuthMethods(challengeLine: "WWW-Authenticate: Basic realm=\"Beward\"\r\n") == .basic)
        #expect(HTTPAuthMethods(challengeLine: "www-authenticate: Digest realm=\"a,b\", qop=\"auth,auth-int\", nonce=\"x\"")
                == .digest)
        #expect(HTTPAuthMethods(challengeLine: "WWW-Authenticate: Digest realm=\"x\", Basic realm=\"x\"") == [.digest, .basic])
        #expect(HTTPAuthMethods(challengeLine: "WWW-Authenticate: NTLM") == .other)
        #expect(HTTPAuthMethods(challengeLine: "Content-Type: text/plain").isEmpty)
        #expect(HTTPAuthMethods([.digest, .basic]).description == "Digest and Basic")
    }

    @Test("intercom doctor names the auth a refusing panel asked for")
    func doctorSaysWhatThePanelAskedFor() async throws {
        let server = SimulatedPanelHTTPServer(options: .init(auth: .basic))
        let port = try server.start()
        defer { server.stop() }
        let directory = try TestDirectory(prefix: "intercom-e2e-doctor-auth")
        func gateConfig(port: UInt16, name: String) throws -> URL {
            try IntercomBinary.writeConfig("""
                [sip]
                listen = udp:127.0.0.1:0

                [panel gate]
                url = http://127.0.0.1:\(port)
                password = admin
                """, in: directory, name: name)
        }
        let config = try gateConfig(port: port, name: "config.ini")
        let doctor = try await IntercomBinary.run(["doctor", "--config", config.path], in: directory, timeout: .seconds(30))
        #expect(doctor.status == 77, "\(doctor.stdout)\n\(doctor.stderr)")
        #expect(doctor.stdout.contains("gate: panel gate asked for Basic authentication"), "\(doctor.stdout)")
        #expect(server.requestCount("authorization:basic") == 0)

        // A wrong password: the line says which scheme the panel asked for and what we answer.
        let digest = SimulatedPanelHTTPServer(options: .init(password: "other"))
        let digestPort = try digest.start()
        defer { digest.stop() }
        let wrong = try gateConfig(port: digestPort, name: "wrong.ini")
        let refused = try await IntercomBinary.run(["doctor", "--config", wrong.path], in: directory, timeout: .seconds(30))
        #expect(refused.status == 77, "\(refused.stdout)\n\(refused.stderr)")
        #expect(refused.stdout.contains("refused the user/password: check user, password and auth = (digest|basic) in [panel gate] "
            + "(the panel asked for Digest; auth = digest answers Digest only)"), "\(refused.stdout)")
    }
}
