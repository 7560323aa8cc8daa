import Foundation
import IntercomBase

/// `address/intercom` (the flat's settings), `ext/options` and `cctv/all`.
extension OperatorService {
    /// The minutes `whiteRabbit` takes; anything else becomes "0".
    static let whiteRabbitMinutes: Set<String> = ["0", "1", "2", "3", "5", "7", "10"]

    func intercom(_ body: JSONValue, _ caller: Caller) -> OperatorReply {
        guard ownFlat(body, caller) != nil else { return OperatorEnvelope.error(404) }
        let changes: [(String, JSONValue)] = if case .object(let fields)? = body["settings"] { fields } else { [] }
        let clock = self.clock
        let device = caller.deviceKey
        let (settings, voip) = state.withLock { s in
            for (key, value) in changes {
                switch key {
                case "CMS": s.settings.cms = Self.isOn(value)
                case "VoIP":
                    if Self.isOn(value) { s.voipOff.remove(device) } else { s.voipOff.insert(device) }
                case "autoOpen":
                    // date('Y-m-d H:i:s', strtotime(...)) in PHP's zone: a past date switches it off;
                    // text that is no date is ignored.
                    if let text = value.loose, let date = clock.parse(text) { s.settings.autoOpen = clock.dateTime(date) }
                case "whiteRabbit":
                    let minutes = value.loose ?? "0"
                    s.settings.whiteRabbit = Self.whiteRabbitMinutes.contains(minutes) ? minutes : "0"
                case "disablePlog": s.settings.disablePlog = Self.isOn(value)
                case "hiddenPlog": s.settings.hiddenPlog = Self.isOn(value)
                default: break
                }
            }
            return (s.settings, !s.voipOff.contains(device))
        }
        // Computed from the entrance's camera; a request's FRSDisabled is never read.
        let recognition: [(String, JSONValue)] = options.recognition ? [("FRSDisabled", .flag(false)), ("LPRSDisabled", .flag(false))] : []
        return OperatorEnvelope.ok(.object([
            // `intercom.php`: always "t", and the code or "00000" when the flat has none.
            ("allowDoorCode", .flag(true)),
            ("doorCode", .string(settings.doorCode.isEmpty ? "00000" : settings.doorCode)),
            ("CMS", .flag(settings.cms)),
            ("VoIP", .flag(voip)),
            ("autoOpen", .string(settings.autoOpen)),
            ("whiteRabbit", .string(settings.whiteRabbit)),
            ("disablePlog", .flag(settings.disablePlog)),
            ("hiddenPlog", .flag(settings.hiddenPlog)),
        ] + recognition))
    }

    /// "t" both ways; a client that sends a JSON `true` is read as PHP would (true == "t").
    static func isOn(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let s): s == "t"
        case .bool(let b): b
        default: false
        }
    }

    func extOptions() -> OperatorReply {
        OperatorEnvelope.ok(.object([
            ("timeZone", .string(options.timeZone.identifier)),
            ("guestAccess", .flag(true)),
        ]))
    }

    /// The server's root (the base URL without `/mobile`), for URLs it hands out.
    var rootURL: String {
        let base = baseURL
        return base.hasSuffix("/mobile") ? String(base.dropLast("/mobile".count)) : base
    }

    /// A Flussonic-style camera per house, all of them or one house's: `{root}/cctv/ID` with this run's
    /// camera token, played by `OperatorVideoService` (with cameras off the URL answers 404 and the
    /// token is empty).
    func cameras(_ body: JSONValue, _ caller: Caller) -> OperatorReply {
        var shown = houses
        if let house = body["houseId"]?.loose {
            shown = houses.filter { $0.houseId == house }
            if shown.isEmpty { return OperatorEnvelope.ok(nil) }
        }
        guard caller.hasFlat else { return OperatorEnvelope.ok(nil) }
        // As helpers/listCameras.php: the house's cameras, then each entrance's camera (`entrances.camera_id`).
        return OperatorEnvelope.ok(.array(shown.flatMap(\.entrances).map { entrance in
            .object([
                ("id", .integer(entrance.cameraId)),
                ("path", .null),
                ("pathOrder", .null),
                ("name", .string(entrance.cameraName)),
                ("lat", .string("55.75")),
                ("lon", .string("37.61")),
            ] + cameraStream(cameraId: entrance.cameraId))
        }))
    }

    /// Where a camera of the fixture streams, as both `cctv/all` and `cctv/camMap` hand it out.
    func cameraStream(cameraId: Int) -> [(String, JSONValue)] {
        let own = options.cameraServer.map { "\($0)/cam\(cameraId)" } ?? "\(rootURL)/cctv/\(cameraId)"
        let url = options.blocked ? "\(rootURL)/cctv/blocked" : own
        // Another server's cameras keep their own tokens; this run's token is for ours.
        return [
            ("url", .string(url)),
            ("token", .string(options.cameraServer == nil ? video?.token ?? "" : "")),
            ("serverType", .string("flussonic")),
            ("hasSound", .bool(false)),
        ]
    }
}
