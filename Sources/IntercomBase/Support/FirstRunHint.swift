/// Where a new user starts (issue 38): said on stderr by a screen started with no config, and in the
/// screen itself wherever it has no door to show, so an empty screen always names the way on.
public enum FirstRunHint {
    public static let text = "no config yet: `intercom setup` finds your panels, `intercom demo` shows a simulated one"
}
