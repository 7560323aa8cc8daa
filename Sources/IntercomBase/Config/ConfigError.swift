/// A config problem that stops the program.
///
/// `description` is the single stderr line the CLI prints, so it names the
/// place (file, line, key) and, when we know one, the fix. Values that might be
/// secret are never put into `message` by the parser or the decoder.
public struct ConfigError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var line: Int?
    public var key: String?
    /// `[panel gate]`-style label, so a key error in one of several panels is unambiguous.
    public var section: String?
    public var message: String
    public var fix: String?

    public init(file: String, line: Int? = nil, key: String? = nil, section: String? = nil,
                message: String, fix: String? = nil) {
        self.file = file
        self.line = line
        self.key = key
        self.section = section
        self.message = message
        self.fix = fix
    }

    /// The interface contract: every config error exits 65 (EX_DATAERR).
    public var exitCode: Int32 { 65 }

    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if let key {
            text += "key '\(key)'"
            if let section { text += " in \(section)" }
            text += ": "
        } else if let section {
            text += "\(section): "
        }
        text += message
        if let fix { text += " — \(fix)" }
        return text
    }
}
