/// `rtsp =` and `rtsp_sub =` of a panel: where its camera streams live. Unset means derived from
/// `url` (a Beward panel serves `rtsp://HOST:554/av0_0`, and `av0_1` for the smaller sub stream);
/// `off` means the panel has no stream worth trying and its pictures are polled snapshots.
public enum PanelStreamSetting: Sendable, Equatable {
    case derived
    case off
    /// `rtsp://HOST[:PORT]/PATH`, never with user or password (the panel's `user`/`password` are used).
    case url(String)
}
