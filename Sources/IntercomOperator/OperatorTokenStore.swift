import Foundation
import IntercomBase

/// The operator tokens: `$XDG_STATE_HOME/intercom/operators/NAME.json` (directory 0700, file 0600,
/// written whole through a rename so a crash leaves the old file or the new one). Kept out of the
/// config file, which users copy and paste, and treated like a password.
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
        do {
            if let existing = try load(name) { return existing }
        } catch {
            guard case .unreadableToken = error.kind else { throw error }
        }
        let fresh = OperatorCredentials(deviceId: UUID().uuidString.lowercased())
        try save(fresh, for: name)
        return fresh
    }

    public func save(_ credentials: OperatorCredentials, for name: String) throws(OperatorError) {
        do {
            // The state folder first: made 0700 here, or tightened if an older run left it open.
            let notice = { (line: String) in Logger().notice("operator tokens: \(line)") }
            try StateDirectory.ensure((directory as NSString).deletingLastPathComponent, notice: notice)
            try StateDirectory.ensure(directory, notice: notice)
        } catch {
            throw OperatorError(operatorName: name, kind: .local(detail: "token directory: \(error.description)"))
        }
        do {
            try DurableFile.write(Data((credentials.json.encoded + "\n").utf8), to: path(for: name))
        } catch {
            throw OperatorError(operatorName: name, kind: .local(detail: "cannot save the token: \(error.description)"))
        }
    }

    /// Changes what is on disk for `name` (nothing when there is no file): the client notes what
    /// it learns of the server there. Read and written whole; a concurrent writer's change to the
    /// same file between the two is lost, which costs at most one more lesson.
    public func update(_ name: String, _ change: (inout OperatorCredentials) -> Void) throws(OperatorError) {
        guard var credentials = try load(name) else { return }
        let before = credentials
        change(&credentials)
        if credentials != before { try save(credentials, for: name) }
    }

    /// Forgets the token and keeps the device id; false when there was no token.
    @discardableResult
    public func logout(_ name: String) throws(OperatorError) -> Bool {
        guard var credentials = try load(name), credentials.token != nil else { return false }
        credentials.token = nil
        credentials.cameras = []
        try save(credentials, for: name)
        return true
    }
}
