import Foundation
@testable import IntercomSimulator
import Testing
import IntercomImaging
import IntercomPanel
import IntercomHTTP
import IntercomTestSupport
import IntercomBase

@Suite struct PanelHTTPTests {
    /// A Basic-only panel needs `auth = basic` (`PanelHTTPAuthTests`); the rest work by default.
    @Test(arguments: [(SimulatedPanelOptions.Auth.digest, PanelAuth.digest), (.both, .digest), (.basic, .basic)])
    func authSucceedsWithoutPreemptiveBasic(auth: SimulatedPanelOptions.Auth, allowed: PanelAuth) async throws {
        let f = try PanelFixture(.init(auth: auth), auth: allowed)
        defer { f.server.stop() }
        for _ in 0..<3 {
            let jpeg = try await f.panel.snapshot()
            #expect(jpeg.starts(with: [0xFF, 0xD8]))
        }
        #expect(f.server.requestCount("images_cgi") == 3)
        // The first request went out without credentials and was challenged.
        #expect(f.server.requestCount("401") >= 1)
        let image = try JPEG.decode(try await f.panel.snapshot())
        #expect(image.width == 640 && image.height == 480)
    }

    @Test func systemInfoAndFamily() async throws {
        let f = try PanelFixture()
        defer { f.server.stop() }
        let info = try await f.panel.systemInfo()
        #expect(info["DeviceModel"] == "DKS15120_rev5.2.4.2")
        #expect(try await f.panel.detectFamily() == .dks)
    }

    @Test(arguments: [(SimulatedPanelOptions.Auth.digest, PanelAuth.digest), (.both, .digest), (.basic, .basic)])
    func wrongPasswordIsAuthRefused(auth: SimulatedPanelOptions.Auth, allowed: PanelAuth) async throws {
        let f = try PanelFixture(.init(auth: auth), password: "s3cret-wrong", auth: allowed)
        defer { f.server.stop() }
        let error = await panelError { () async throws(PanelError) in try await f.panel.snapshot() }
        #expect(error == .authRefused(panel: "test"))
        #expect(error?.exitCode == 77)
        let text = try #require(error?.description)
        #expect(text == "panel test refused the user/password: check user, password and auth = (digest|basic) in [panel test]")
        #expect(!text.contains("s3cret-wrong"))
    }

    @Test func slowPanelTimesOutWithinTheTimeout() async throws {
        // The panel answers after 10 s; a timeout that works ends the request long before.
        let f = try PanelFixture(.init(delayMs: 10_000), timeout: .milliseconds(800))
        defer { f.server.stop() }
        let start = ContinuousClock.now
        let error = await panelError { () async throws(PanelError) in try await f.panel.snapshot() }
        let elapsed = ContinuousClock.now - start
        guard case .timeout = error else {
            Issue.record("expected timeout, got \(String(describing: error))")
            return
        }
        #expect(error?.exitCode == 69)
        // The panel would have answered after 10 s: anything well below shows the client gave up first.
        #expect(elapsed < .seconds(9))
    }

    @Test func brokenJPEGIsADecodeError() async throws {
        let f = try PanelFixture(.init(brokenJPEG: true))
        defer { f.server.stop() }
        let body = try await f.panel.snapshot()
        #expect(throws: JPEGError.self) { try JPEG.decode(body) }
    }

    @Test func truncatedJPEGIsADecodeError() async throws {
        let f = try PanelFixture(.init(truncatedJPEG: true))
        defer { f.server.stop() }
        let body = try await f.panel.snapshot()
        #expect(body.starts(with: [0xFF, 0xD8]))
        #expect(throws: JPEGError.self) { try JPEG.decode(body) }
    }

    @Test func hugeBodyIsTooLarge() async throws {
        let f = try PanelFixture(.init(hugeBodyMB: 50), maxBodyBytes: 4 << 20)
        defer { f.server.stop() }
        let error = await panelError { () async throws(PanelError) in try await f.panel.snapshot() }
        #expect(error == .tooLarge(limit: 4 << 20))
        #expect(error?.exitCode == 65)
    }

    @Test func closedPortIsUnreachable() async throws {
        let server = SimulatedPanelHTTPServer()
        let port = try server.start()
        server.stop()
        let panel = try BewardPanel(name: "gone", baseURL: "http://127.0.0.1:\(port)", user: "admin", password: "pw-never-shown")
        let error = await panelError { () async throws(PanelError) in try await panel.snapshot() }
        guard case .unreachable(let message) = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
        #expect(error?.exitCode == 69)
        #expect(message.contains("gone"))
        #expect(!message.contains("pw-never-shown"))
    }

    @Test func badURLsAreRejectedUpFront() {
        #expect(throws: PanelError.self) {
            try BewardPanel(name: "x", baseURL: "ftp://1.2.3.4", user: "a", password: "b")
        }
        #expect(throws: PanelError.self) {
            try BewardPanel(name: "x", baseURL: "http://admin:pw@1.2.3.4", user: "a", password: "b")
        }
    }

    @Test func missingCGIIsUnsupported() async throws {
        let f = try PanelFixture(.init(deviceModel: "DS06M"), model: .dks)
        defer { f.server.stop() }
        let error = await panelError { () async throws(PanelError) in try await f.panel.open(door: .main) }
        #expect(error == .unsupported(cgi: "intercom_cgi"))
    }
}
