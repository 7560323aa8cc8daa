import Foundation
import IntercomTestSupport
import Testing
@testable import IntercomOperator
import IntercomBase

/// The token file: private, whole, and a device id that outlives logout.
@Suite struct OperatorTokenStoreTests {
    func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : 0
    }

    @Test func theStateDirectoryFollowsXDG() {
        let store = OperatorTokenStore(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])
        #expect(store.path(for: "home") == "/s/intercom/operators/home.json")
        #expect(OperatorTokenStore(environment: ["HOME": "/h"]).directory == "/h/.local/state/intercom/operators")
        // A name is never a path.
        #expect(store.path(for: "../x") == "/s/intercom/operators/___x.json")
    }

    @Test func savedPrivatelyAndTheDeviceIdSurvivesLogout() throws {
        let directory = try TestDirectory(prefix: "intercom-tokens")
        let store = OperatorTokenStore(environment: ["XDG_STATE_HOME": directory.path])
        #expect(try store.load("home") == nil)
        var credentials = try store.loadOrCreate("home")
        #expect(UUID(uuidString: credentials.deviceId) != nil)
        #expect(try store.loadOrCreate("home").deviceId == credentials.deviceId)
        credentials.token = "secret-token-1"
        credentials.cameras = [OperatorCamera(id: "7", name: "Porch", url: "https://video.example/cam7", token: "cam-secret",
                                              serverType: "flussonic", hasSound: true)]
        try store.save(credentials, for: "home")
        // The cameras an export found come back whole (their stream tokens are secrets like the access token).
        #expect(try store.load("home")?.cameras == credentials.cameras)
        #expect(!credentials.description.contains("cam-secret"))
        #expect(mode(store.directory) == 0o700)
        #expect(mode(store.path(for: "home")) == 0o600)
        #expect(try store.token("home") == "secret-token-1")
        // No temporary file is left beside it; only the lock every change is made under.
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory).sorted() == [".home.json.lock", "home.json"])

        #expect(try store.logout("home"))
        #expect(try store.logout("home") == false)
        let after = try #require(try store.load("home"))
        #expect(after.deviceId == credentials.deviceId)
        #expect(after.token == nil)
        #expect(after.cameras.isEmpty, "logout forgets the cameras' tokens too")
        do {
            _ = try store.token("home")
            Issue.record("a logged-out operator still has a token")
        } catch {
            #expect(error.kind == .notLoggedIn)
            #expect(error.exitCode == 77)
            #expect(error.description == "not logged in to home; run 'intercom login home'")
        }
    }

    @Test func theTokenIsNeverInADescription() {
        let credentials = OperatorCredentials(deviceId: "d", token: "secret-token-2")
        #expect(!String(describing: credentials).contains("secret-token-2"))
        #expect(!"\(credentials)".contains("secret-token-2"))
    }

    /// A damaged file is no login (exit 77, the file named, `login` suggested), and `login`
    /// (`loadOrCreate`) replaces it instead of failing on it.
    @Test func aDamagedFileSaysWhatToDo() throws {
        let directory = try TestDirectory(prefix: "intercom-tokens")
        let store = OperatorTokenStore(environment: ["XDG_STATE_HOME": directory.path])
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try "not json".write(toFile: store.path(for: "home"), atomically: true, encoding: .utf8)
        #expect(throws: OperatorError.self) { try store.load("home") }
        do {
            _ = try store.token("home")
        } catch {
            #expect(error.kind == .unreadableToken(path: store.path(for: "home")))
            #expect(error.exitCode == 77)
            #expect(error.description == "not logged in to home: the token file \(store.path(for: "home")) cannot be read; "
                    + "run 'intercom login home'")
        }
        let fresh = try store.loadOrCreate("home")
        #expect(fresh.token == nil && !fresh.deviceId.isEmpty)
        #expect(try store.load("home") == fresh)
    }
}
