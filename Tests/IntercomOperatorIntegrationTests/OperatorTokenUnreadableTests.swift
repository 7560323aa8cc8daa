import Foundation
import IntercomTestSupport
import Testing
import IntercomBase
@testable import IntercomCLI
import IntercomOperator

/// A token file with garbage in it is as good as no login: the commands exit 77 with the login
/// hint (scripts test 77 to know a login is needed), `login` replaces it, and `doctor` names it.
@Suite(.serialized) struct OperatorTokenUnreadableTests {
    static let garbage = "{\"device_id\": \"d1\", \"token\": \u{1B}[2J garbage"

    func spoil(_ op: OperatorCommandTests.Operator) throws {
        let folder = (op.tokenFile as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Self.garbage.write(toFile: op.tokenFile, atomically: true, encoding: .utf8)
    }

    @Test("open exits 77, doors skips the operator; both say with 'run intercom login NAME'; login then works")
    func commandsTreatItAsNoLogin() async throws {
        let op = try OperatorCommandTests.Operator()
        try await withCleanup({ op.server.stop() }) {
            try spoil(op)
            let hint = "run 'intercom login home'"
            let open = try await op.run(["open", "home:1:0"])
            #expect(open.status == 77 && open.stderr.contains(hint) && open.stderr.contains(op.tokenFile), "\(open)")
            // The config's panel is listed; the operator is skipped as one without a login is.
            let doors = try await op.run(["doors"])
            #expect(doors.status == 0 && doors.stdout.contains("entrance"), "\(doors)")
            #expect(doors.stderr.contains("home skipped: the token file \(op.tokenFile) cannot be read; \(hint)"), "\(doors)")
            #expect(!op.server.requests.contains { $0.headers["authorization"] != nil }, "nothing was sent with a token")

            let login = try await op.run(["login", "home"], stdin: "1001")
            #expect(login.status == 0, "\(login)")
            let reopen = try await op.run(["open", "home:1:0"])
            #expect(reopen.status == 0, "\(reopen)")
        }
    }

    @Test("doctor says which token file cannot be read")
    func doctorNamesTheFile() async throws {
        let directory = try TestDirectory(prefix: "intercom-operator-unreadable")
        let environment = ["XDG_STATE_HOME": directory.path]
        let store = OperatorTokenStore(environment: environment)
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Self.garbage.write(toFile: store.path(for: "home"), atomically: true, encoding: .utf8)
        var config = IntercomConfig(daemon: DaemonSettings(socketPath: "/unused"))
        config.operators = [OperatorConfig(name: "home", api: "http://127.0.0.1:9/mobile")]
        let findings = await OperatorCheck.run(config, environment: environment)
        #expect(findings.count == 1 && findings[0].ok == false && findings[0].code == 77, "\(findings.map(\.text))")
        #expect(findings.first?.text == "not logged in to home: the token file \(store.path(for: "home")) cannot be read; "
                + "run 'intercom login home'")
    }
}
