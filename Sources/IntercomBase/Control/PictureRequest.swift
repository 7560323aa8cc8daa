import Foundation

/// A screen's picture subscription on the control socket (`{"command":"picture",…}`): a panel's
/// peephole at the pixel size and rate the screen draws it, or the answered call's video. A
/// width of 0 ends the subscription. The daemon keeps one newest frame per subscription and
/// connection, so a slow screen loses frames instead of queueing them.
public struct PictureRequest: Sendable, Equatable {
    public enum Source: Sendable, Equatable, Hashable {
        case panel(String)
        /// The answered call's own video (whichever call that is).
        case video
    }

    public var source: Source
    public var width: Int
    public var height: Int
    /// Frames a second at most (0.2 to 30).
    public var fps: Double
    /// For a panel: whether its live stream should play, or its stills alone.
    public var live: Bool

    public init(source: Source, width: Int, height: Int, fps: Double, live: Bool = true) {
        self.source = source
        self.width = width
        self.height = height
        self.fps = fps
        self.live = live
    }

    /// Ends the subscription of `source`.
    public static func stop(_ source: Source) -> PictureRequest {
        PictureRequest(source: source, width: 0, height: 0, fps: 1, live: false)
    }

    public var stops: Bool { width == 0 }

    /// What the request asks of its panel's picture (`IntercomCommand.picture`); nil when it stops.
    public var want: PictureWant? { stops ? nil : PictureWant(width: width, height: height, live: live) }

    /// The subscription's key on the wire (`"frame"` lines carry it): the panel's name, or `video`.
    public var key: String { Self.key(source) }

    public static func key(_ source: Source) -> String {
        switch source {
        case .panel(let name): "panel:\(name)"
        case .video: "video"
        }
    }

    static let largest = PictureWant.largest

    /// Why a `picture` request was refused, in one line.
    struct Invalid: Error {
        var message: String
    }

    /// The request's fields after `command`, as `ControlRequest.json` writes them.
    var fields: [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = []
        switch source {
        case .panel(let name): fields.append(("panel", .string(name)))
        case .video: fields.append(("video", .bool(true)))
        }
        fields += [("width", .integer(width)), ("height", .integer(height)),
                   ("fps", .number(fps)), ("live", .bool(live))]
        return fields
    }

    static let rateRule = "\"fps\" must be a number from 0.2 to 30"

    /// An `fps` field (absent: `otherwise`); nil when it is no number from 0.2 to 30.
    static func rate(_ raw: JSONValue?, otherwise: Double) -> Double? {
        let fps: Double
        switch raw {
        case .integer(let n)?: fps = Double(n)
        case .number(let d)?: fps = d
        case nil, .null?: fps = otherwise
        default: return nil
        }
        return fps >= 0.2 && fps <= 30 ? fps : nil
    }

    /// Reads the fields of a `picture` request; a failure says what was wrong in one line.
    static func parse(_ value: JSONValue) -> Result<PictureRequest, Invalid> {
        let source: Source
        if value["video"]?.boolValue == true {
            source = .video
        } else if let panel = value["panel"]?.stringValue, !panel.isEmpty {
            source = .panel(panel)
        } else {
            return .failure(Invalid(message: "picture needs \"panel\" (a panel name) or \"video\": true"))
        }
        func integer(_ key: String) -> Int? {
            switch value[key] {
            case .integer(let n)?: n
            case .number(let d)? where d == d.rounded() && abs(d) < 1e9: Int(d)
            default: nil
            }
        }
        guard let width = integer("width"), let height = integer("height"),
              (0...largest).contains(width), (0...largest).contains(height), (width == 0) == (height == 0) else {
            return .failure(Invalid(message: "picture needs \"width\" and \"height\" in pixels (1 to \(largest); both 0 stops it)"))
        }
        guard let fps = rate(value["fps"], otherwise: 5) else { return .failure(Invalid(message: rateRule)) }
        var live = true
        if let raw = value["live"], raw != .null {
            guard let flag = raw.boolValue else { return .failure(Invalid(message: "\"live\" must be true or false")) }
            live = flag
        }
        return .success(PictureRequest(source: source, width: width, height: height, fps: fps, live: live))
    }
}

/// One picture sent to a screen: `{"frame":KEY,"seq":N,"kind":…,"call":…,"jpeg":BASE64}` on one
/// line (DECISIONS: JPEG in base64 inside the JSON line, measured against a binary frame).
public struct PictureLine: Sendable, Equatable {
    public var key: String
    public var sequence: Int
    /// `snapshot` or `live` for a panel; `video` for the call's video.
    public var kind: String
    public var call: String?
    /// A panel's troubles as its own screen shows them under the picture: why the live stream is
    /// not playing (`PeepholeHub.streamNote`, "…: showing snapshots") and why its last snapshot
    /// failed (`problem`). Absent while all is well.
    public var note: String?
    public var problem: String?
    public var jpeg: Data

    public init(key: String, sequence: Int, kind: String, call: String?, note: String? = nil, problem: String? = nil, jpeg: Data) {
        self.key = key
        self.sequence = sequence
        self.kind = kind
        self.call = call
        self.note = note
        self.problem = problem
        self.jpeg = jpeg
    }

    /// The line, built by hand: the JPEG's base64 needs no escaping, and a frame is written
    /// several times a second.
    public var encoded: String {
        var fields: [(String, JSONValue)] = [("frame", .string(key)), ("seq", .integer(sequence)), ("kind", .string(kind)),
                                             ("call", .optional(call))]
        if let note { fields.append(("note", .string(note))) }
        if let problem { fields.append(("problem", .string(problem))) }
        let head = JSONValue.object(fields).encoded
        return head.dropLast() + ",\"jpeg\":\"" + jpeg.base64EncodedString() + "\"}"
    }

    /// A frame line, or nil for any other line (an event, a reply). Read as bytes: the JPEG's
    /// field is last and the fields before it are short, so only they go through the JSON parser.
    public init?(line: String) {
        guard line.hasPrefix("{\"frame\":") else { return nil }
        let bytes = line.utf8
        let marker = Array(",\"jpeg\":\"".utf8)
        // The fields before the JPEG: short, but a note and a problem are a sentence each.
        let head = bytes.prefix(2048)
        guard bytes.count > marker.count + 2, bytes.suffix(2).elementsEqual("\"}".utf8),
              let start = head.indices.first(where: { head[$0...].starts(with: marker) }) else { return nil }
        let body = bytes.index(start, offsetBy: marker.count)
        guard let fields = JSONValue.parse(String(decoding: bytes[..<start], as: UTF8.self) + "}"),
              let key = fields["frame"]?.stringValue, case .integer(let sequence)? = fields["seq"],
              let kind = fields["kind"]?.stringValue,
              let jpeg = Data(base64Encoded: Data(bytes[body..<bytes.index(bytes.endIndex, offsetBy: -2)])) else {
            return nil
        }
        self.init(key: key, sequence: sequence, kind: kind, call: fields["call"]?.stringValue,
                  note: fields["note"]?.stringValue, problem: fields["problem"]?.stringValue, jpeg: jpeg)
    }
}
