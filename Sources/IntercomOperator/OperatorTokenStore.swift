import Foundation
import IntercomBase

/// The operator tokens: `$XDG_STATE_HOME/intercom/operators/NAME.json` (directory 0700, file 0600,
/// written whole through a rename so a crash leaves the old file or the new one). Kept out of the
/// config file, which users copy and paste, and treated like a password.
///
/// Several commands change one file (`login`, `logout`, `open` noting the server's time, `export`
/// and `watch` keeping cameras, the daemon's log sync): each change is a read-change-write under
/// the file's lock, one writer at a time. Only `logIn` and `logout` write the token; every other
/// change reads the file again under the lock and touches only its own field. Reading takes no
/// lock: a rename never shows a half-written file.
public struct OperatorTokenStore: Sendable {
    public var directory: String

    public init(directory: String) {
        self.directory = directory
    }

    public init(environment: [String: String]) {
        self.init(directory: XDGDirectories(environment: environment).stateDirectory + "/operators")
    }

    public func path(for name: String) -> String { "\(directory)/\(Self.fileName(name)).json" }

    /// An operator name as a file name: the config allows any word, a file name must not hold `/`.
    static func fileName(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" }).replacingOccurrences(of: "..", with: "__")
    }

    /// What is on disk, or nil when nothing is. A file that is not a token (garbage, cut short,
    /// not ours to read) throws `unreadableToken`: not logged in (exit 77), naming the file.
    public func load(_ name: String) throws(OperatorError) -> OperatorCredentials? {
        let path = path(for: name)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path),
              let json = JSONValue.parse(String(decoding: data, as: UTF8.self)),
              let credentials = OperatorCredentials(json: json) else {
            throw OperatorError(operatorName: name, kind: .unreadableToken(path: path))
        }
        return credentials
    }

    /// The token, or `notLoggedIn`.
    public func token(_ name: String) throws(OperatorError) -> String {
        try loggedIn(name).token
    }

    /// The token and everything kept beside it, read once; `notLoggedIn` without a token.
    public func loggedIn(_ name: String) throws(OperatorError) -> (token: String, credentials: OperatorCredentials) {
        guard let credentials = try load(name), let token = credentials.token else {
            throw OperatorError(operatorName: name, kind: .notLoggedIn)
        }
        return (token, credentials)
    }

    /// What is on disk, or new credentials with a fresh device id, saved at once so the id is
    /// the same on the next try even if this login fails. An unreadable file is replaced: `login`
    /// is what its error tells the user to run.
    public func loadOrCreate(_ name: String) throws(OperatorError) -> OperatorCredentials {
        try locked(name) { () throws(OperatorError) in
            do throws(OperatorError) {
                if let existing = try load(name) { return existing }
            } catch {
                guard case .unreadableToken = error.kind else { throw error }
            }
            let fresh = OperatorCredentials(deviceId: UUID().uuidString.lowercased())
            try write(fresh, for: name)
            return fresh
        }
    }

    /// `login`'s end: `token`, granted to `deviceId`, replaces whatever token the file holds. What
    /// was noted of the server meanwhile (another command's, under the lock) stays; the cameras
    /// found with another token go, as at logout.
    public func logIn(_ name: String, token: String, deviceId: String) throws(OperatorError) {
        try locked(name) { () throws(OperatorError) in
            var credentials = (try? load(name)) ?? OperatorCredentials(deviceId: deviceId)
            if credentials.token != token { credentials.cameras = [] }
            credentials.deviceId = deviceId
            credentials.token = token
            try write(credentials, for: name)
        }
    }

    /// Writes `credentials` whole, under the lock (setting up a login, in tests).
    public func save(_ credentials: OperatorCredentials, for name: String) throws(OperatorError) {
        try locked(name) { () throws(OperatorError) in try write(credentials, for: name) }
    }

    /// Changes what the client noted of the server for `name` (nothing when there is no file): read
    /// again under the lock, so a note never brings back a token that `logout` or `login` replaced
    /// since this command read it; the token and device id on disk are kept whatever `change` does.
    /// `whileLoggedInWith`: only while the file still holds that token (what was found with it,
    /// such as a camera's stream token, is not kept for another login or after logout).
    public func update(_ name: String, whileLoggedInWith token: String? = nil,
                       _ change: (inout OperatorCredentials) -> Void) throws(OperatorError) {
        guard try load(name) != nil else { return }
        try locked(name) { () throws(OperatorError) in
            guard let current = try load(name) else { return }
            if let token, current.token != token { return }
            var credentials = current
            change(&credentials)
            credentials.token = current.token
            credentials.deviceId = current.deviceId
            if credentials != current { try write(credentials, for: name) }
        }
    }

    /// Forgets the token and keeps the device id; false when there was no token.
    @discardableResult
    public func logout(_ name: String) throws(OperatorError) -> Bool {
        try locked(name) { () throws(OperatorError) in
            guard var credentials = try load(name), credentials.token != nil else { return false }
            credentials.token = nil
            credentials.cameras = []
            try write(credentials, for: name)
            return true
        }
    }

    /// The lock every change of `name`'s file is made under (`FileLock`): `.NAME.json.lock` beside it.
    public func lockPath(for name: String) -> String { "\(directory)/.\(Self.fileName(name)).json.lock" }

    /// Runs `body` holding `name`'s lock, the folders made (0700) first.
    private func locked<T>(_ name: String, _ body: () throws(OperatorError) -> T) throws(OperatorError) -> T {
        do {
            // The state folder first: made 0700 here, or tightened if an older run left it open.
            let notice = { (line: String) in Logger().notice("operator tokens: \(line)") }
            try StateDirectory.ensure((directory as NSString).deletingLastPathComponent, notice: notice)
            try StateDirectory.ensure(directory, notice: notice)
        } catch {
            throw OperatorError(operatorName: name, kind: .local(detail: "token directory: \(error.description)"))
        }
        return try FileLock.hold(lockPath(for: name), failure: { OperatorError(operatorName: name, kind: .local(detail: $0)) }, body)
    }

    /// Only under `name`'s lock: no other writer of the file is running, so any temporary file of
    /// its name is a crash's leftover.
    private func write(_ credentials: OperatorCredentials, for name: String) throws(OperatorError) {
        DurableFile.removeTemporaries(of: path(for: name))
        do {
            try DurableFile.write(Data((credentials.json.encoded + "\n").utf8), to: path(for: name))
        } catch {
            throw OperatorError(operatorName: name, kind: .local(detail: "cannot save the token: \(error.description)"))
        }
    }
}
