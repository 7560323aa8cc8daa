import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Who acted on a call or a door: the face a command came from and, for a person's face, which
/// one and whose. `call_answered`, `door_opened`, `call_ended` and the journal carry it as `who`
/// next to their `by` (which keeps its values), so every face can say who answered.
public struct FaceIdentity: Sendable, Equatable, CustomStringConvertible {
    public enum Face: String, Sendable, CaseIterable {
        /// A screen (`tui`, `kiosk`, `watch`): attached to the daemon, or with an engine of its own.
        case screen
        /// `intercom ctl` or any other client of the control socket that is not an attached screen.
        case ctl
        case mqtt
        /// A button of the desktop notification.
        case notification
        case guestMode = "guest_mode"
        /// `auto_answer`.
        case auto
    }

    public var face: Face
    /// An attached screen's number: its control connection's, as `status` lists it under `screens`.
    /// Nil for a screen that runs an engine of its own (it is the only one).
    public var screen: Int?
    /// What kind of screen: `tui`, `kiosk`, `watch` (the name it attached with).
    public var kind: String?
    /// The host user the face runs as: a connection's peer (SO_PEERCRED uid, as a name), a screen's own.
    public var user: String?

    public init(_ face: Face, screen: Int? = nil, kind: String? = nil, user: String? = nil) {
        self.face = face
        self.screen = screen
        self.kind = kind
        self.user = user
    }

    public static let mqtt = FaceIdentity(.mqtt)
    public static let notification = FaceIdentity(.notification)
    public static let guestMode = FaceIdentity(.guestMode)
    public static let auto = FaceIdentity(.auto)

    /// `{"face": "screen", "screen": 2, "kind": "kiosk", "user": "anna"}`; what is unknown is left out.
    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [("face", .string(face.rawValue))]
        if let screen { fields.append(("screen", .integer(screen))) }
        if let kind { fields.append(("kind", .string(kind))) }
        if let user { fields.append(("user", .string(user))) }
        return .object(fields)
    }

    /// Reads back what `json` writes; nil for anything else.
    public init?(json: JSONValue) {
        guard let text = json["face"]?.stringValue, let face = Face(rawValue: text) else { return nil }
        var screen: Int?
        if case .integer(let n)? = json["screen"] { screen = n }
        self.init(face, screen: screen, kind: json["kind"]?.stringValue, user: json["user"]?.stringValue)
    }

    /// What a screen says of it: `screen 2 (kiosk, anna)`, `ctl (root)`, `mqtt`, `guest mode`.
    public var description: String {
        var name: String
        switch face {
        case .screen: name = screen.map { "screen \($0)" } ?? "screen"
        case .guestMode: name = "guest mode"
        case .auto: name = "auto-answer"
        default: name = face.rawValue
        }
        let details = [kind, user].compactMap { $0 }
        if !details.isEmpty { name += " (" + details.joined(separator: ", ") + ")" }
        return name
    }

    /// "answered at screen 2 (kiosk, anna)", "answered with ctl (root)": a screen is a place, the rest are means.
    public var answeredText: String { (face == .screen ? "answered at " : "answered with ") + description }

    /// The name of host user `uid` (the password database's), else the number: a peer's uid is
    /// never hidden because it has no name.
    public static func userName(uid: UInt32) -> String {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        let status = getpwuid_r(uid_t(uid), &entry, &buffer, buffer.count, &found)
        guard status == 0, let found, let name = found.pointee.pw_name else { return "uid \(uid)" }
        return String(cString: name)
    }

    /// This process's user.
    public static var ownUser: String { userName(uid: getuid()) }
}
