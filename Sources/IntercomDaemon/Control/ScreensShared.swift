import IntercomEngine

/// What the daemon's connections share about the screens attached to it: who they are, what
/// they ask of each panel's picture, and the pictures encoded once for all. The panels and cameras
/// they watch are the engine's (`IntercomCommand.watch`, one subscriber per connection).
struct ScreensShared: Sendable {
    let screens = AttachedScreens()
    let wants: PanelWants
    let pictures = SharedPictures()

    init(intercom: Intercom) {
        wants = PanelWants(hub: intercom.peephole)
    }
}
