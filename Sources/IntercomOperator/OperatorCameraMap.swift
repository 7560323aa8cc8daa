import IntercomBase

/// The operator's camera map (`cctv/camMap`): one camera per entrance of the subscriber's flats,
/// each under its panel's `domophoneId` (camMap's `id`) and its `entranceId`. A panel that serves
/// several entrances is listed once per entrance, and every one is kept: a call from the panel
/// shows the first (the call does not say which entrance it came from), the others are there to
/// pick by entrance.
public struct OperatorCameraMap: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var domophoneId: String
        /// nil on a server older than camMap's `entranceId`.
        public var entranceId: String?
        public var camera: OperatorCamera

        public init(domophoneId: String, entranceId: String? = nil, camera: OperatorCamera) {
            self.domophoneId = domophoneId
            self.entranceId = entranceId
            self.camera = camera
        }
    }

    /// In the server's order.
    public var entries: [Entry]

    public init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    /// One camera per panel (as a test's fake or an older map gives it).
    public init(byPanel: [String: OperatorCamera]) {
        self.init(byPanel.sorted { $0.key < $1.key }.map { Entry(domophoneId: $0.key, camera: $0.value) })
    }

    /// The camera a call from panel `domophoneId` shows: its first entrance's.
    public subscript(domophoneId: String) -> OperatorCamera? {
        entries.first { $0.domophoneId == domophoneId }?.camera
    }

    /// Every entrance camera of the panel, in the server's order.
    public func cameras(domophoneId: String) -> [Entry] {
        entries.filter { $0.domophoneId == domophoneId }
    }

    /// The camera of entrance `entranceId`.
    public func camera(entranceId: String) -> Entry? {
        entries.first { $0.entranceId == entranceId }
    }

    /// camMap's answer: `id` the panel, `entranceId` the entrance; an entrance listed twice keeps its first.
    static func parse(_ data: JSONValue?) -> OperatorCameraMap? {
        guard let data else { return OperatorCameraMap() }
        guard let items = data.arrayValue else { return nil }
        var seen = Set<String>()
        return OperatorCameraMap(items.compactMap { item -> Entry? in
            guard let camera = OperatorCamera(json: item) else { return nil }
            let entrance = item["entranceId"]?.looseString
            if let entrance, !seen.insert(entrance).inserted { return nil }
            return Entry(domophoneId: camera.id, entranceId: entrance, camera: camera)
        })
    }
}
