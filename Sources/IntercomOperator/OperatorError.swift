import IntercomBase

/// Why an operator request failed, as the user is told: one English line saying what to do, the
/// operator's own text (often Russian) after it, and an exit code. Logic keys on the HTTP status only.
public struct OperatorError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No token on disk for this operator.
        case notLoggedIn
        /// A token file that is not one (garbage, truncated): as good as no login.
        case unreadableToken(path: String)
        /// 401, 410 or 424: the token was rotated, revoked or is unknown.
        case loginExpired(status: Int)
        /// 429: a code was asked for less than 60 s ago.
        case codeTooSoon
        /// 403 while confirming a code.
        case wrongCode
        /// 403 "Maximum number of login attempts exceeded" (`mobile.maxAttempts`, either language): the code is void.
        case tooManyAttempts
        /// 403 "Device limit per mobile number exceeded" (`mobile.overLimit`): no new device for the number.
        case deviceLimit
        /// 404 while confirming: no code is pending (it lives 60 s).
        case noPendingCode
        /// 402: the service is not paid.
        case paymentRequired
        /// 404: not the flat's door, the flat is blocked, or the object is gone.
        case notFound
        /// 403 outside a login.
        case forbidden
        /// 405: the operator does not allow this on the flat (a new entry code for a flat without one).
        case notAllowed
        /// 200 whose `data` is the server's refusal in words ("Нет прав для удаления": a member who is
        /// not the owner removing a guest, server/mobile/address/access.php): nothing was done.
        case refusedInAnswer
        /// Another 4xx (422: the operator found the request's data wrong).
        case rejected(status: Int)
        /// 5xx or an unexpected status.
        case serverFailed(status: Int)
        /// Connect, TLS or timeout: the operator never answered.
        case unreachable(detail: String)
        /// Not JSON, not the expected shape, or larger than the cap.
        case badAnswer(detail: String)
        /// Our own side: the token file could not be read or written.
        case local(detail: String)
    }

    public var operatorName: String
    public var kind: Kind
    /// What the operator's server said (`message`, plus `data.error`), if anything.
    public var serverText: String?

    public init(operatorName: String, kind: Kind, serverText: String? = nil) {
        self.operatorName = operatorName
        self.kind = kind
        self.serverText = serverText
    }

    public var exitCode: Int32 {
        switch kind {
        case .notLoggedIn, .unreadableToken, .loginExpired, .wrongCode, .tooManyAttempts, .deviceLimit, .noPendingCode,
             .paymentRequired, .notFound, .forbidden, .notAllowed, .refusedInAnswer:
            return 77
        case .codeTooSoon, .serverFailed, .unreachable:
            return 69
        case .rejected, .badAnswer:
            return 65
        case .local:
            return 1
        }
    }

    /// The HTTP status the operator answered with, for the kinds that are an answer of its.
    public var httpStatus: Int? {
        switch kind {
        case .loginExpired(let code), .rejected(let code), .serverFailed(let code): code
        case .codeTooSoon: 429
        case .wrongCode, .tooManyAttempts, .deviceLimit, .forbidden: 403
        case .noPendingCode, .notFound: 404
        case .notAllowed: 405
        case .refusedInAnswer: 200
        case .paymentRequired: 402
        case .notLoggedIn, .unreadableToken, .unreachable, .badAnswer, .local: nil
        }
    }

    public var description: String {
        let name = operatorName
        let relogin = "run 'intercom login \(name)'"
        let line: String
        switch kind {
        case .notLoggedIn:
            return "not logged in to \(name); \(relogin)"
        case .unreadableToken(let path):
            return "not logged in to \(name): the token file \(path) cannot be read; \(relogin)"
        case .loginExpired:
            line = "the operator \(name) no longer accepts this login; \(relogin)"
        case .codeTooSoon:
            line = "\(name): a code was requested less than 60 s ago; wait a minute, then \(relogin) again"
        case .wrongCode:
            line = "\(name): wrong confirmation code; \(relogin) to try again"
        case .tooManyAttempts:
            line = "\(name): too many wrong codes (at most 5 an hour); the code is void, \(relogin) later for a new one"
        case .deviceLimit:
            line = "\(name): the operator allows no more devices for this phone number; ask the operator to remove one you no longer use"
        case .noPendingCode:
            line = "\(name): no confirmation code is pending (a code is valid 60 s); \(relogin) again"
        case .paymentRequired:
            line = "\(name): the operator refuses until the service is paid; ask the operator"
        case .notFound:
            line = "\(name): the operator refused: not found, or the flat is blocked"
        case .forbidden:
            line = "\(name): the operator refused the request"
        case .notAllowed:
            line = "\(name): the operator does not allow this on the flat (a new entry code for a flat that has none, for one)"
        case .refusedInAnswer:
            // A 200: no HTTP status to blame, the server's own words are the reason.
            return "\(name): the operator refused\(serverSaid.isEmpty ? " and gave no reason" : serverSaid); nothing was changed"
        case .rejected:
            line = "\(name): the operator rejected the request's data"
        case .serverFailed:
            line = "\(name): the operator's server failed; try again later"
        case .unreachable(let detail):
            return "cannot reach operator \(name): \(detail); check [operator \(name)] api and the network"
        case .badAnswer(let detail):
            return "operator \(name) sent an answer this client cannot read (\(detail)); nothing was stored"
        case .local(let detail):
            return "\(name): \(detail)"
        }
        return "\(line) (HTTP \(httpStatus ?? 0)\(serverSaid))"
    }

    /// ": TEXT" of what the server said, clipped; empty when it said nothing.
    public var serverSaid: String { serverText.map { ": \(Self.clip($0))" } ?? "" }

    /// Server text is shown, not trusted: one line, at most 200 characters.
    public static func clip(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }
}
