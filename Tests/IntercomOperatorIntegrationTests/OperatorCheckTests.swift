import Foundation
import IntercomTestSupport
import Testing
import IntercomBase
@testable import IntercomCLI
import IntercomOperator

/// `intercom doctor`'s operator findings: not logged in, a loose token file, a login the operator
/// accepts, one it no longer accepts, and the zone the server was seen to write in against ext/options.
@Suite struct OperatorCheckTests {
    @Test func findings() async throws {
        let server = try OperatorStubServer { request in
            request.headers["authorization"] == "Bearer good" ? .noContent : .error(401, "Не авторизован")
        }
        try await withCleanup({ server.stop() }) {
            let directory = try TestDirectory(prefix: "intercom-operator-check")
            let environment = ["XDG_STATE_HOME": directory.path]
            let store = OperatorTokenStore(environment: environment)
            var config = IntercomConfig(daemon: DaemonSettings(socketPath: "/unused"))
            config.operators = [OperatorConfig(name: "home", api: server.baseURL),
                                OperatorConfig(name: "dacha", api: server.baseURL),
                                OperatorConfig(name: "old", api: server.baseURL)]
            // Learned: the server writes UTC, while ext/options (none here) means Moscow.
            try store.save(OperatorCredentials(deviceId: "d1", token: "good", serverOffset: 0), for: "home")
            try store.save(OperatorCredentials(deviceId: "d3", token: "rotated"), for: "old")
            chmod(store.path(for: "home"), 0o644)
            let findings = await OperatorCheck.run(config, environment: environment)
            #expect(findings.map(\.ok) == [false, true, false, false, false], "\(findings.map(\.text))")
            #expect(findings[0].text.contains("chmod 600"))
            #expect(findings[1].text.contains("accepts the login"))
            #expect(findings[2].text.contains("ext/options names no zone, but the server writes its times in UTC+00:00"),
                    "\(findings[2].text)")
            #expect(findings[2].code == 0)
            #expect(findings[3].text == "not logged in to dacha; run 'intercom login dacha'")
            #expect(findings[4].code == 77)
            #expect(findings[4].text.contains("run 'intercom login old'"))
            #expect(findings.allSatisfy { !$0.text.contains("good") && !$0.text.contains("rotated") })
        }
    }
}
