import IntercomCore

/// What the daemon's connections share about the screens attached to it: who they are, and the
/// pictures encoded once for all. The panels and cameras they watch, and what they ask of each
/// panel's picture, are the engine's (`IntercomCommand.watch`, `.picture`, one subscriber per connection).
struct ScreensShared: Sendable {
    let screens = AttachedScreens()
    let pictures = SharedPictures()
}
