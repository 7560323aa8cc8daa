import IntercomBase

/// The first run (issue 38): `intercom` with no config used to open an empty screen that said
/// nothing of where to start. The screens say this instead, on stderr before the screen opens.
public enum FirstRun {
    public static let noConfigHint = "no config yet: `intercom setup` finds your panels, `intercom demo` shows a simulated one"

    /// Says `noConfigHint` when `config` came from no file (the defaults), not when one was loaded.
    public static func hintIfUnconfigured(_ config: IntercomConfig) {
        if config.path == nil { Console.error("intercom: \(noConfigHint)") }
    }
}
