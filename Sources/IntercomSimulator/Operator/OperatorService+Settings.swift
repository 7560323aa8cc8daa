import Foundation
import IntercomBase

/// `address/intercom` (the flat's settings), `ext/options` and `cctv/all`.
extension OperatorService {
    /// The minutes `whiteRabbit` takes; anything else becomes "0".
    static let whiteRabbitMinutes: Set<String> = ["0", "1", "2", "3", "5", "7", "10"]

    /// As server/mobile/address/intercom.php: the settings written, then read back. `disablePlog` and
    /// `hiddenPlog` are read from the flat's owner only (anyone else's are ignored, 200 all the same)
    /// and both write the one `plog` access: disabled denies, enabled is all or owner only as
    /// `hiddenPlog` says, and `hiddenPlog` alone changes only a log that is not denied. They are sent
    /// to the owner only; `doorCode` always ("00000" for none).
    func intercom(_ body: JSONValue, _ caller: Caller) -> OperatorReply {
        guard ownFlat(body, caller) != nil else { return OperatorEnvelope.error(404) }
        let changes: [(String, JSONValue)] = if case .object(let fields)? = body["settings"] { fields } else { [] }
        let clock = self.clock
        let device = caller.deviceKey
        let owner = isOwner(caller)
        let (settings, voip) = state.withLock { s in
            var disable: Bool?, hidden: Bool?
            for (key, value) in changes {
                switch key {
                case "CMS": if Self.isSet(value) { s.settings.cms = Self.isOn(value) }
                case "VoIP":
                    guard Self.isSet(value) else { continue }
                    if Self.isOn(value) { s.voipOff.remove(device) } else { s.voipOff.insert(device) }
                case "autoOpen":
                    // date('Y-m-d H:i:s', strtotime(...)) in PHP's zone: a past date switches it off;
                    // text that is no date is ignored.
                    if let text = value.loose, let date = clock.parse(text) { s.settings.autoOpen = clock.dateTime(date) }
                case "whiteRabbit":
                    let minutes = value.loose ?? "0"
                    s.settings.whiteRabbit = Self.whiteRabbitMinutes.contains(minutes) ? minutes : "0"
                case "disablePlog" where owner && Self.isSet(value): disable = Self.isOn(value)
                case "hiddenPlog" where owner && Self.isSet(value): hidden = Self.isOn(value)
                default: break
                }
            }
            if disable == true {
                s.settings.plog = .denied
            } else if disable == false {
                s.settings.plog = hidden == false ? .all : .ownerOnly
            } else if let hidden, s.settings.plog != .denied {
                s.settings.plog = hidden ? .ownerOnly : .all
            }
            return (s.settings, !s.voipOff.contains(device))
        }
        // Computed from the entrance's camera; a request's FRSDisabled is never read.
        let recognition: [(String, JSONValue)] = options.recognition ? [("FRSDisabled", .flag(false)), ("LPRSDisabled", .flag(false))] : []
        let privacy: [(String, JSONValue)] = owner
            ? [("disablePlog", .flag(settings.plog == .denied)), ("hiddenPlog", .flag(settings.plog != .all))] : []
        return OperatorEnvelope.ok(.object([
            ("allowDoorCode", .flag(true)),
            ("doorCode", .string(settings.doorCode.isEmpty ? "00000" : settings.doorCode)),
            ("CMS", .flag(settings.cms)),
            ("VoIP", .flag(voip)),
            ("autoOpen", .string(settings.autoOpen)),
            ("whiteRabbit", .string(settings.whiteRabbit)),
        ] + privacy + recognition))
    }

    /// Whether the caller is the flat's owner (`role` 0). The fixture's test phone owns the flat.
    func isOwner(_ caller: Caller) -> Bool { caller.phone == options.testPhone }

    /// PHP's `@$settings['KEY']`: absent, "", "0", false and null are not set.
    static func isSet(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let s): !s.isEmpty && s != "0"
        case .bool(let b): b
        case .integer(let n): n != 0
        default: false
        }
    }

    /// "t" both ways; a client that sends a JSON `true` is read as PHP would (true == "t").
    static func isOn(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let s): s == "t"
        case .bool(let b): b
        default: false
        }
    }

    /// As server/mobile/ext/options.php with a stock config: every flag it always sends, the zone, and
    /// `guestAccess` ("turnOnOnly": the app's guest switch sets an end, never clears one).
    func extOptions() -> OperatorReply {
        OperatorEnvelope.ok(.object([
            ("cityCams", .flag(false)), ("payments", .flag(false)), ("chat", .flag(false)),
            ("timeZone", .string(options.timeZone.identifier)),
            ("guestAccess", .string("turnOnOnly")),
            ("version", .integer(0)),
            ("entrancesView", .string("list")),
            ("addressVerificationTabLayoutVisible", .flag(true)), ("addressVerificationTab1Visible", .flag(true)),
            ("addressVerificationTab2Visible", .flag(true)),
            ("eventsTracking", .flag(false)), ("stories", .flag(false)), ("faceGroups", .flag(false)), ("faceClustering", .flag(false)),
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
        }
        // No camera to list: 204, as the PHP's `response()` without data.
        guard caller.hasFlat, !shown.isEmpty else { return OperatorEnvelope.noContent }
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
