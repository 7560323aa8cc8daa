import Foundation
import IntercomImaging
import IntercomBase

/// The CGI endpoints of the simulated panel (a subset of beward-http-api.md §3).
extension SimulatorCore {
    /// `cgi` is the last path component; `query` looks up one decoded argument.
    func route(cgi: String, query: (String) -> String?) -> SimulatedResponse {
        let action = query("action")
        count(cgi)
        if let action { count("\(cgi)?action=\(action)") }

        switch cgi {
        case "images_cgi":
            return snapshot()
        case "systeminfo_cgi":
            guard !options.restrictedAccount else { return .text(status: 401, "Unauthorized\n") }
            return .keyValues([
                ("HostName", "intercom-sim"),
                ("ChannelNum", "1"),
                ("Standard", "PAL"),
                ("DeviceID", "1"),
                ("SoftwareVersion", "1.0.0.0"),
                ("WebVersion", "1.0.0"),
                ("HardwareVersion", "1.0"),
                ("DeviceModel", options.deviceModel),
                ("DeviceUUID", "00000000-0000-0000-0000-000000000000"),
                ("FaceRecognition", "0"),
                ("UpTime", uptimeText),
            ])
        case "intercom_cgi":
            guard !options.isDSFamily else { return .notDefined(cgi) }
            switch action {
            case "maindoor":
                doorOpened(.main)
                return .ok()
            case "altdoor":
                doorOpened(.alt)
                return .ok()
            case "light":
                let enable = query("Enable") ?? ""
                count("light:\(enable)")
                guard enable == "on" else { return .ok() }
                doorOpened(.light)
                stall(ms: faults.stallLightOnMs)
                return .ok()
            case "locked":
                return .text(status: 200, isLocked ? "1\r\n" : "0\r\n")
            case "get":
                return .keyValues([("DoorOpenTime", "\(max(1, options.relayMs / 1000))"), ("CallTimeout", "60")])
            default:
                return .text(status: 200, "Error: unknown action\r\n")
            }
        case "alarmout_cgi":
            guard action == "set", let output = query("Output").flatMap(Int.init) else {
                return .text(status: 200, "Error: bad parameters\r\n")
            }
            // A one-relay DS refuses the others in its own words (the wording is ours: no capture shows it).
            guard output >= 0, output < options.relays else {
                return .text(status: 200, "Error: Output \(output) is not available\n")
            }
            if query("Status") == "1" {
                let door: Door = switch output {
                case 0: .main
                case 1: .alt
                default: .output(output)
                }
                doorOpened(door)
            }
            return .ok()
        case "alarmchangestate_cgi":
            return options.alarmStream ? .alarmStream : .notDefined(cgi)
        case "rtsp_cgi":
            // A panel answers its RTSP settings; without a running RTSP server the switch is off.
            guard action == "get" else { return .text(status: 200, "Error: unknown action\r\n") }
            return .keyValues([
                ("RtspSwitch", options.rtspPort == nil ? "close" : "open"),
                ("RtspAuth", "open"),
                ("RtspPort", "\(options.rtspPort ?? 554)"),
            ])
        case "sip_cgi":
            // The account as a Beward panel reports it (beward-http-api.md §4): AccUser1 is the user
            // its calls come from; regstatus its registration. Other actions (call, set) are not simulated.
            let user = options.sipUser ?? ""
            // Registered as far as a client can tell once an account is set up.
            if action == "regstatus" { return .keyValues([("AccountReg1", user.isEmpty ? "0" : "1")]) }
            guard action == "get" else { return .text(status: 200, "Error: unknown action\r\n") }
            return .keyValues([
                ("AccountEnable1", user.isEmpty ? "off" : "on"),
                ("AccUser1", user),
                ("RegServerUrl1", ""),
                ("RegServerPort1", "5060"),
                ("SipServerUrl1", ""),
                ("SipServerPort1", "5060"),
                ("NatEnable1", "off"),
                ("DtmfMode1", "rfc2833"),
                ("DtmfSignal1", "1"),
                ("DtmfSignal2", "2"),
                ("DtmfSignal3", "3"),
                ("CallTimeout", "60"),
                ("StreamType", "main"),
                ("AllowIncoming", "on"),
            ])
        case "rsyslog_cgi":
            // Where the panel sends its syslog (SmartYard's driver: Enable, Protocol, ServerAddress,
            // ServerPort, LogLevel=6). The simulator keeps what was set; its lines go where --syslog says.
            switch action {
            case "get": return .keyValues(rsyslog)
            case "set":
                setRsyslog(query)
                return .ok()
            default: return .text(status: 200, "Error: unknown action\r\n")
            }
        case "config_cgi":
            // SmartYard's driver saves the configuration after every door opening.
            return action == "forcesave" ? .ok() : .text(status: 200, "Error: unknown action\r\n")
        default:
            // Firmware answers a CGI it lacks with 200 and one line, not 404.
            return .notDefined(cgi)
        }
    }

    /// Waits on the connection's thread, sliced so a stopping server does not wait out a long delay.
    func stall(ms: Int) {
        var left = ms
        while left > 0, !isStopping {
            usleep(UInt32(min(left, 50)) * 1000)
            left -= 50
        }
    }

    private func snapshot() -> SimulatedResponse {
        if options.hugeBodyMB > 0 {
            return .huge(bytes: UInt64(options.hugeBodyMB) << 20)
        }
        let faults = self.faults
        if faults.brokenJPEG {
            // Labelled image/jpeg but no JPEG: what a confused proxy or firmware bug sends.
            return .jpeg(Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }))
        }
        let frame = nextFrame()
        let image = SyntheticFrame.render(frame: frame, label: "DKS SIM", time: Self.clockText())
            .enlarged(width: options.snapshotWidth, height: options.snapshotHeight)
        guard let jpeg = try? JPEG.encode(image, quality: 75) else {
            return .text(status: 500, "Error: encoder failed\r\n")
        }
        if faults.truncatedJPEG {
            return .jpeg(jpeg.prefix(jpeg.count / 2))
        }
        return .jpeg(jpeg)
    }
}
