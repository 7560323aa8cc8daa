import Foundation
import IntercomBase

/// A simulated SmartYard operator: the mobile API a subscriber's app talks to, answering as the
/// real server does (envelope, 204s, "t"/"f", operator-local dates, its error texts), with a test
/// phone and a fixed PIN, one flat (or one per address, `options.addresses`) whose doors drive a
/// Beward panel over HTTP, a camera per address (live HLS and a preview, as Flussonic serves them) and an event log that grows
/// with each door opening. For `intercom simulate-operator`, the demo and tests.
///
/// Unlike the real server it has no loopback `?phone=` back door: every API call but login and the
/// log pictures needs a Bearer token. Call `stop()` when done.
public final class SimulatedOperator: Sendable {
    public let options: SimulatedOperatorOptions
    let service: OperatorService
    private let server: OperatorHTTPServer

    private init(options: SimulatedOperatorOptions) {
        self.options = options
        let service = OperatorService(options: options)
        self.service = service
        self.server = OperatorHTTPServer { service.handle($0) }
    }

    /// Starts listening on `options.host`:`options.port`.
    /// Throws `SimulatorError.cannotListen` for an address not of this machine or a taken port, and
    /// `.cannotStartCameras` when the cameras are on and GStreamer or one of its plugins is missing.
    public static func start(_ options: SimulatedOperatorOptions = .init()) throws(SimulatorError) -> SimulatedOperator {
        if options.cameras { try OperatorVideoService.checkElements() }
        let simulator = SimulatedOperator(options: options)
        let port = try simulator.server.start(host: options.host, port: options.port)
        simulator.service.baseURL = "http://\(Self.urlHost(options.host)):\(port)/mobile"
        for text in options.messages { simulator.sendMessage(text) }
        return simulator
    }

    /// Closes the listener and every connection, then stops the cameras. Safe to call twice.
    public func stop() {
        service.setStopping(true)
        server.stop()
        service.video?.stop()
    }

    /// The camera token `cctv/all` hands out this run ("" with the cameras off).
    public var cameraToken: String { service.video?.token ?? "" }

    public var port: UInt16 { server.port }

    /// The API's base URL, `http://HOST:PORT/mobile` (a wildcard address shown as loopback).
    public var baseURL: String { service.baseURL }

    /// Requests per API method ("user/confirmCode", "address/openDoor", "address/plogCamshot") and per
    /// answer status ("status:204", "status:401"); "cctv/video" counts the cameras' video requests.
    public func requestCount(_ key: String) -> Int { service.requestCount(key) }

    /// The faults answers meet from now on; `.init()` heals the server.
    public var faults: SimulatedOperatorFaults {
        get { service.faults }
        set { service.faults = newValue }
    }

    /// Every access token stops working at once (401), as when the operator removes the devices.
    public func revokeAllTokens() { service.revokeAllTokens() }

    /// A call from the entrance panel reached the flat: an "unanswered call" (1) or "answered call" (2)
    /// log entry, as the server writes after a call.
    /// `picture` false logs it without a frame (`previewType` 0), as when the camera gave none.
    /// Returns the entry's uuid.
    @discardableResult
    /// `entrance`: which of the first panel's entrances rang (0 the first; one past the last is the last).
    public func recordCall(answered: Bool, picture: Bool = true, entrance: Int = 0) -> String {
        guard let house = service.houses.first, let door = house.doors.first else { return "" }
        let from = house.entrances[min(max(0, entrance), house.entrances.count - 1)]
        return service.record(event: answered ? "2" : "1", door: door, detail: [("opened", .flag(false))], picture: picture,
                              entrance: from)
    }

    /// When `address/plog` first handed out the entry `uuid` (a client's sync saw it then); nil before.
    public func firstServed(uuid: String) -> Date? {
        service.state.withLock { $0.firstServed[uuid] }
    }

    /// A door opened for a face (event 5, `faceId` and the face's box) or a plate (event 9,
    /// `detailX.vehicle` with `plateNumber`), as the server logs a recognition.
    public func recordRecognition(face: Int? = nil, plate: String? = nil) {
        guard let door = service.houses.first?.doors.first else { return }
        if let face {
            service.record(event: "5", door: door, detail: [
                ("face", .object([("left", .string("10")), ("top", .string("20")), ("width", .string("64")), ("height", .string("64"))])),
                ("faceId", .string(String(face))),
            ])
        }
        if let plate {
            service.record(event: "9", door: door, detail: [
                ("vehicle", .object([("vehicleBox", .array([.integer(1), .integer(2), .integer(3), .integer(4)])),
                                     ("plateKeyPoints", .array([])), ("plateNumber", .string(plate))])),
            ])
        }
    }

    /// The flat's other subscribers, as `address/access` left them.
    public var roommates: [String] { service.state.withLock { $0.roommates.map(\.phone) } }

    /// The licence plates of flat `flatId` (the first flat's by default), as `lprs/*` left them.
    public func plates(flatId: String = "1") -> [String] { service.state.withLock { $0.plates[flatId] ?? [] } }

    /// The messages the server sent other users (a guest's "new address"), oldest first.
    public var messages: [(phone: String, text: String)] { service.state.withLock { $0.messages.map { ($0.phone, $0.text) } } }

    /// Puts a message in the inbox of `phone` (the test phone by default), unread, as the
    /// operator's staff or its billing would.
    public func sendMessage(_ text: String, to phone: String? = nil, at date: Date = Date()) {
        let phone = phone ?? options.testPhone
        service.state.withLock { $0.send(text, to: phone, at: date) }
    }

    /// Unread messages in `phone`'s inbox (the test phone's by default).
    public func unreadCount(_ phone: String? = nil) -> Int {
        let phone = phone ?? options.testPhone
        return service.state.withLock { s in s.messages.filter { $0.phone == phone && !$0.read }.count }
    }

    /// The number of event-log entries so far.
    public var logCount: Int { service.state.withLock { $0.log.count } }

    private static func urlHost(_ host: String) -> String {
        switch host {
        case "0.0.0.0": "127.0.0.1"
        case "::", "::0": "[::1]"
        case _ where host.contains(":"): "[\(host)]"
        default: host
        }
    }
}
