import IntercomBase

/// The first run (issue 38): `intercom` with no config used to open an empty screen that said
/// nothing of where to start. The screens say this instead, on stderr before the screen opens (and
/// the screen's door list says it too: `FirstRunHint`).
public enum FirstRun {
    public static let noConfigHint = FirstRunHint.text

    /// Says `noConfigHint` when `config` came from no file (the defaults), not when one was loaded.
    public static func hintIfUnconfigured(_ config: IntercomConfig) {
        if config.path == nil { Console.error("intercom: \(noConfigHint)") }
    }
}
