import IntercomEngine

/// What the daemon's connections share about the screens attached to it: who they are, what
/// they ask of each panel's picture, the panels and cameras they watch, and the pictures encoded once for all.
struct ScreensShared: Sendable {
    let screens = AttachedScreens()
    let wants: PanelWants
    let watched: WatchedPanels
    let cameras: WatchedCameras
    let pictures = SharedPictures()

    init(intercom: Intercom) {
        wants = PanelWants(hub: intercom.peephole)
        watched = WatchedPanels(intercom: intercom)
        cameras = WatchedCameras(intercom: intercom)
    }
}
