/// One door a front end can offer: a panel's main door (id = the panel's name) or an operator's
/// door (id `OPERATOR:DOMOPHONE:DOOR`), the same ids `intercom doors` prints and `open` takes.
public struct DoorListing: Sendable, Equatable {
    public enum Source: String, Sendable { case panel, `operator` }

    public var id: String
    public var name: String
    public var source: Source
    /// The panel's name, or the operator's.
    public var owner: String
    public var address: String?
    public var domophoneId: String?
    public var doorId: Int?
    /// Why the operator will not open it (its own text), when it says so.
    public var blocked: String?

    public init(id: String, name: String, source: Source, owner: String, address: String? = nil,
                domophoneId: String? = nil, doorId: Int? = nil, blocked: String? = nil) {
        self.id = id
        self.name = name
        self.source = source
        self.owner = owner
        self.address = address
        self.domophoneId = domophoneId
        self.doorId = doorId
        self.blocked = blocked
    }

    public static func panel(_ name: String) -> DoorListing {
        DoorListing(id: name, name: "\(name) main door", source: .panel, owner: name)
    }

    /// `{"id","name","source","panel"|"operator",…}` for the control socket's `status`.
    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [("id", .string(id)), ("name", .string(name)), ("source", .string(source.rawValue)),
                                             (source == .panel ? "panel" : "operator", .string(owner))]
        if let address { fields.append(("address", .string(address))) }
        if let blocked { fields.append(("blocked", .string(blocked))) }
        return .object(fields)
    }
}
