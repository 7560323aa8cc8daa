/// The exit codes every command keeps to (README: Commands; BSD sysexits where one fits).
public enum ExitCode {
    public static let ok: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 64
    public static let dataError: Int32 = 65
    public static let unavailable: Int32 = 69
    public static let authRefused: Int32 = 77
}
