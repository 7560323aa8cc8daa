import IntercomBase

/// The exit codes every command keeps to (README: Commands; BSD sysexits where one fits).
public enum ExitCode {
    public static let ok: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 64
    public static let dataError: Int32 = 65
    public static let unavailable: Int32 = 69
    public static let authRefused: Int32 = 77
    /// EX_CONFIG: local state the intercom must not start with (a `switches.json` it cannot trust).
    public static let configuration: Int32 = 78
}

extension ExitCode {
    /// Every code with its meaning, for the generated reference and the man page.
    public static let reference: [ReferenceEntry] = [
        ReferenceEntry("\(ok)", "Success."),
        ReferenceEntry("\(failure)", "Anything else: a refused control command, an I/O failure."),
        ReferenceEntry("\(usage)", "Usage: an unknown command or option, a missing or malformed argument."),
        ReferenceEntry("\(dataError)", "Bad config or data: a config error, an answer that is not what it should be."),
        ReferenceEntry("\(unavailable)", "A panel, SIP peer, operator or the daemon is unavailable (not reachable, no answer, port taken)."),
        ReferenceEntry("\(authRefused)", "Authentication refused: a panel's password, an operator's login or token."),
        ReferenceEntry("\(configuration)", "The daemon or terminal client would not start on its saved switches: `switches.json` not ours, writable by others, unreadable or damaged (the message says how to mend it)."),
    ]
}
