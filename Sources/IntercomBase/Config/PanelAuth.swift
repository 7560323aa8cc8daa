/// Which HTTP authentication a panel may be answered with (`[panel] auth`).
///
/// `digest` (the default) never sends the password itself: over `http://` a man in the middle
/// could otherwise answer with a Basic challenge and read it. `basic` is for firmware that only
/// speaks Basic; it also answers Digest when the panel offers it.
public enum PanelAuth: String, Sendable, Equatable, CaseIterable {
    case digest, basic
}
