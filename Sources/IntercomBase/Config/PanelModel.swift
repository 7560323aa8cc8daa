/// Beward panel families; they differ in CGI paths. `auto` asks the panel.
public enum PanelModel: String, Sendable, Equatable, CaseIterable {
    case auto, dks, ds
}
