/// A sound device as liblinphone lists it; `id` is what `[audio] playback/capture/speaker` name.
public struct AudioDevice: Sendable, Equatable, Codable {
    public var id: String
    public var name: String
    public var driver: String
    public var canPlay: Bool
    public var canRecord: Bool
    public init(id: String, name: String, driver: String, canPlay: Bool, canRecord: Bool) {
        self.id = id; self.name = name; self.driver = driver; self.canPlay = canPlay; self.canRecord = canRecord
    }
}
