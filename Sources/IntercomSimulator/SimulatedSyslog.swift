import Foundation
import IntercomBase
#if canImport(Glibc)
import Glibc
#endif

/// The simulated panel's syslog: the lines a Beward panel sends to its `rsyslog_cgi` target, in
/// RFC 3164 framing, over UDP from a chosen local address (a test sends a stranger's from another
/// 127.x address). The messages are the ones SmartYard-Server's event services read from real panels.
public final class SimulatedSyslog: Sendable {
    /// What happened at the simulated panel.
    public enum Happening: Sendable, Equatable {
        /// An RFID key at the main reader (or the external one: `external`).
        case key(String, flat: Int, external: Bool = false)
        /// A flat's entry code typed on the keypad.
        case code(String, flat: Int)
        /// The exit button of the main door (`main`) or the additional one.
        case button(main: Bool)
        /// A flat's analogue handset pressed its open button.
        case handset(flat: Int)
        /// The panel calls a flat: by SIP (`number` dialled) or its analogue line.
        case calling(flat: Int, sip: String?)
        /// The flat's analogue handset took the call.
        case handsetAnswered(flat: Int)
        /// DTMF digits in a call opened the door.
        case dtmf(flat: Int)

        /// The panel's message for it.
        public var message: String {
            switch self {
            case .key(let id, let flat, let external): "Opening door by \(external ? "external " : "")RFID \(id), apartment \(flat)"
            case .code(let code, let flat): "Opening door by code \(code), apartment \(flat)"
            case .button(let main): "\(main ? "Main" : "Additional") door button pressed"
            case .handset(let flat): "Opening door by CMS handset for apartment \(flat)"
            case .calling(let flat, let sip?): "[\(61000 + flat)] Calling sip:\(sip) through account 0(0)..."
            case .calling(let flat, nil): "CMS handset call started for apartment \(flat)"
            case .handsetAnswered(let flat): "CMS handset talk started for apartment \(flat)"
            case .dtmf(let flat): "Opening door by DTMF command for apartment \(flat)"
            }
        }
    }

    /// The line a panel event makes by itself: a call it places (`Calling sip:…`) and a door a
    /// digit opened (`Opening door by DTMF command`); nil for the rest. `flat`: the flat it calls.
    public static func happening(for event: SimulatedPanelEvent, flat: Int) -> Happening? {
        switch event {
        case .calling(_, let to):
            let uri = to.hasPrefix("sip:") ? String(to.dropFirst(4)) : to
            return .calling(flat: flat, sip: uri.split(separator: ";").first.map(String.init) ?? uri)
        case .doorOpened(let door) where door.method == "dtmf":
            return .dtmf(flat: flat)
        default:
            return nil
        }
    }

    /// A happening typed as a line (`intercom-sim panel --syslog`'s stdin): `key ID [FLAT]`,
    /// `code CODE [FLAT]`, `button main|alt`, `handset FLAT`, `calling FLAT`, `answered FLAT`.
    public static func happening(command line: String, flat: Int) -> Happening? {
        let words = line.split(separator: " ").map(String.init)
        guard let verb = words.first else { return nil }
        let number = words.count > 1 ? Int(words[1]) : nil
        let last = words.count > 2 ? Int(words[2]) : nil
        switch verb {
        case "key" where words.count > 1 && words[1].allSatisfy(\.isHexDigit): return .key(words[1].uppercased(), flat: last ?? flat)
        case "code" where number != nil: return .code(words[1], flat: last ?? flat)
        case "button" where words.count == 2 && (words[1] == "main" || words[1] == "alt"): return .button(main: words[1] == "main")
        case "handset": return .handset(flat: number ?? flat)
        case "calling": return .calling(flat: number ?? flat, sip: nil)
        case "answered": return .handsetAnswered(flat: number ?? flat)
        default: return nil
        }
    }

    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
    }

    private let fd: OwnedDescriptor
    private let target: sockaddr_in

    /// A sender from `source` (an IPv4 address of this machine) to `host:port` (IPv4).
    public init(to host: String, port: Int, from source: String = "127.0.0.1") throws(SetupError) {
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = UInt16(clamping: port).bigEndian
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        guard host.withCString({ inet_pton(AF_INET, $0, &target.sin_addr) }) == 1,
              source.withCString({ inet_pton(AF_INET, $0, &local.sin_addr) }) == 1 else {
            throw SetupError(description: "syslog target \(host):\(port) and source \(source) must be IPv4 addresses")
        }
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SetupError(description: "cannot make a UDP socket: \(String(cString: strerror(errno)))") }
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw SetupError(description: "cannot send syslog from \(source): \(reason)")
        }
        self.fd = OwnedDescriptor(fd)
        self.target = target
    }

    deinit { fd.close() }

    /// Sends the happening's line, framed as RFC 3164 (`<14>` = user.info, as `LogLevel=6` sends).
    public func send(_ happening: Happening) {
        send(message: happening.message)
    }

    /// Sends any message (a test's own lines).
    public func send(message: String) {
        let stamp = Self.stamp(Date())
        let bytes = Array("<14>\(stamp) DKS15122 UART[895]: \(message)".utf8)
        var target = target
        _ = bytes.withUnsafeBytes { buffer in
            withUnsafePointer(to: &target) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd.fd, buffer.baseAddress, buffer.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        }
    }

    /// RFC 3164's `Mmm dd hh:mm:ss` (day padded with a space), in UTC.
    static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let c = calendar.dateComponents([.month, .day, .hour, .minute, .second], from: date)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let month = months[max(0, min(11, (c.month ?? 1) - 1))]
        func two(_ n: Int?) -> String { let v = n ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        let day = (c.day ?? 1) < 10 ? " \(c.day ?? 1)" : "\(c.day ?? 1)"
        return "\(month) \(day) \(two(c.hour)):\(two(c.minute)):\(two(c.second))"
    }
}
