import IntercomBase

/// A CCTV camera (`cctv/all`). The stream is `url` + a per-DVR path + `token` (Flussonic by default).
public struct OperatorCamera: Sendable, Equatable {
    public var id: String
    public var name: String
    public var url: String?
    /// A stream token: a secret like the bearer token, never printed.
    public var token: String?
    public var serverType: String?
    public var hasSound: Bool
    public var hlsMode: String?

    public init(id: String, name: String, url: String? = nil, token: String? = nil, serverType: String? = nil,
                hasSound: Bool = false, hlsMode: String? = nil) {
        self.id = id
        self.name = name
        self.url = url
        self.token = token
        self.serverType = serverType
        self.hasSound = hasSound
        self.hlsMode = hlsMode
    }

    init?(json: JSONValue) {
        guard let id = json.text("id") else { return nil }
        self.init(id: id, name: json.text("name") ?? "camera \(id)", url: json.text("url"), token: json.text("token"),
                  serverType: json.text("serverType"), hasSound: json["hasSound"]?.looseBool ?? false,
                  hlsMode: json.text("hlsMode"))
    }

    /// The fields as `cctv/all` names them, so `init(json:)` reads them back (the token file keeps
    /// the cameras `export` used: `OperatorClient.keptCamera`).
    var json: JSONValue {
        .object([("id", .string(id)), ("name", .string(name)), ("url", .optional(url)), ("token", .optional(token)),
                 ("serverType", .optional(serverType)), ("hasSound", .bool(hasSound)), ("hlsMode", .optional(hlsMode))])
    }

    static func list(_ data: JSONValue?) -> [OperatorCamera]? {
        guard let data else { return [] }
        return data.arrayValue?.compactMap(OperatorCamera.init(json:))
    }
}
