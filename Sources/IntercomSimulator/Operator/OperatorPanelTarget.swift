import Foundation

/// A Beward panel's HTTP API as the operator's server reaches it (Basic auth, as SmartYard's driver sends).
public struct OperatorPanelTarget: Sendable, CustomStringConvertible {
    /// `http://host:port`, without a path.
    public var url: String
    public var user: String
    public var password: String

    public init(url: String, user: String = "admin", password: String) {
        self.url = url
        self.user = user
        self.password = password
    }

    /// Never the password.
    public var description: String { "\(url) (user \(user))" }
}
