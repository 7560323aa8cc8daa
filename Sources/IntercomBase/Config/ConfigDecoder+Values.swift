import Foundation

/// The value parsers: one per kind of value, each with the exact message and fix a user sees.
/// `ConfigValueParser` wraps them for the schema table; tests call them directly.
extension ConfigDecoder {
    static func list(_ text: String) throws(ConfigValueError) -> [String] {
        if text.trimmingCharacters(in: .whitespaces).isEmpty { return [] }
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard !items.contains(where: \.isEmpty) else {
            throw ConfigValueError("has an empty item in the comma-separated list",
                                   fix: "remove the extra comma")
        }
        return items
    }

    static func choice<T: RawRepresentable & CaseIterable>(_ text: String, _ type: T.Type)
        throws(ConfigValueError) -> T where T.RawValue == String {
        if let match = T(rawValue: text.lowercased()) { return match }
        let options = T.allCases.map(\.rawValue).joined(separator: " | ")
        throw ConfigValueError("'\(text)' is not one of \(options)", fix: "use one of \(options)")
    }

    static func integer(_ text: String, in range: ClosedRange<Int>, unit: String) throws(ConfigValueError) -> Int {
        guard let number = Int(text), range.contains(number) else {
            throw ConfigValueError("'\(text)' is not a whole number of \(unit) from \(range.lowerBound) to \(range.upperBound)",
                                   fix: "use a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    static func onOff(_ text: String) throws(ConfigValueError) -> Bool {
        switch text.lowercased() {
        case "on", "yes", "true", "1": return true
        case "off", "no", "false", "0": return false
        default: throw ConfigValueError("'\(text)' is not on or off", fix: "use on or off")
        }
    }

    static func autoAnswer(_ text: String) throws(ConfigValueError) -> AutoAnswer {
        switch text.lowercased() {
        case "off", "no", "false", "": return .off
        case "on", "yes", "true": return .on
        default:
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 3600 else {
                throw ConfigValueError("'\(text)' is not off, on or a delay in seconds (0 to 3600)",
                                       fix: "e.g. auto_answer = 5")
            }
            return seconds == 0 ? .on : .after(seconds: seconds)
        }
    }

    static func dtmf(_ text: String) throws(ConfigValueError) -> String {
        guard !text.isEmpty else {
            throw ConfigValueError("is empty", fix: "give the digits; quote a '#' like \"#\" so it is not a comment")
        }
        let digits = text.uppercased()
        guard digits.allSatisfy({ "0123456789*#ABCD".contains($0) }) else {
            throw ConfigValueError("'\(text)' may only hold 0-9, *, # and A-D", fix: "e.g. dtmf.main = 1")
        }
        return digits
    }

    /// An error shows the URI with any password in it masked: a mistyped line may still hold one.
    /// A bare URI: a header form (`"Door" <sip:…>`) is not what liblinphone takes here.
    static func sipURI(_ text: String, example: String = "sip:101@pbx.example.org") throws(ConfigValueError) -> String {
        guard !text.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "\"" }),
              let uri = SIPURI(parsing: text) else {
            throw ConfigValueError("'\(Redaction.uri(text))' is not a sip: URI", fix: "e.g. \(example)")
        }
        if uri.hasPassword {
            // It would travel in events, logs and `ctl status`; the password key is kept out of them.
            throw ConfigValueError("must not contain a password (sip:USER:PASSWORD@…)",
                                   fix: "put it in the 'password' key")
        }
        return text
    }

    /// The URL is never echoed: it might carry credentials.
    static func panelURL(_ text: String, example: String = "url = http://192.168.1.50") throws(ConfigValueError) -> String {
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            throw ConfigValueError("must start with http:// or https://", fix: "e.g. \(example)")
        }
        // Keeps secrets in `password`, where the file-permission rule sees them.
        try checkHostAndNoSecrets(text, example: example, secretsFix: "put them in the 'user' and 'password' keys")
        var url = Substring(text)
        while url.hasSuffix("/") { url = url.dropLast() }
        return String(url)
    }

    /// `rtsp =`: empty = derived, `off`, or an `rtsp://`/`rtsps://` URL with a host and no userinfo.
    static func panelStream(_ text: String, example: String) throws(ConfigValueError) -> PanelStreamSetting {
        if text.isEmpty { return .derived }
        if text.lowercased() == "off" { return .off }
        let lower = text.lowercased()
        guard lower.hasPrefix("rtsp://") || lower.hasPrefix("rtsps://") else {
            throw ConfigValueError("'\(text)' is not off or an rtsp:// URL", fix: "e.g. \(example)")
        }
        // The stream logs in with the panel's user and password; none may hide in a URL.
        try checkHostAndNoSecrets(text, example: example, secretsFix: "the stream uses the panel's 'user' and 'password' keys")
        return .url(text)
    }

    /// A URL without spaces, with a host, and with no `user:password@` in it.
    private static func checkHostAndNoSecrets(_ text: String, example: String, secretsFix: String) throws(ConfigValueError) {
        guard !text.contains(where: \.isWhitespace) else {
            throw ConfigValueError("contains spaces", fix: "e.g. \(example)")
        }
        guard let address = URLAddress(parsing: text) else {
            throw ConfigValueError("has no host", fix: "e.g. \(example)")
        }
        if address.hasCredentials {
            throw ConfigValueError("must not contain a user or password", fix: secretsFix)
        }
    }

    static func absolutePath(_ text: String, expander: PathExpander) throws(ConfigValueError) -> String {
        let path = try expander.expand(text)
        guard path.hasPrefix("/") else {
            throw ConfigValueError("'\(text)' is not an absolute path", fix: "start it with '/' or '~/'")
        }
        return path
    }
}
