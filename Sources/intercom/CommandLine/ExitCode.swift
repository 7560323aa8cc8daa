/// The exit codes of INTERFACE.md (BSD sysexits where one fits).
enum ExitCode {
    static let ok: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let unavailable: Int32 = 69
    static let authRefused: Int32 = 77
}
