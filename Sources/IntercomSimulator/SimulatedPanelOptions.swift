import IntercomPanel
import IntercomBase

/// How the simulated panel behaves, including the faults tests inject.
public struct SimulatedPanelOptions: Sendable {
    public enum Auth: String, Sendable, CaseIterable {
        /// Digest only, like the DSN units that reject Basic.
        case digest
        case basic
        /// Offers both challenges; clients pick (curl prefers Digest).
        case both
    }

    public var user: String
    public var password: String
    public var auth: Auth
    /// `systeminfo_cgi` DeviceModel; a DS/DK/ALP name makes `intercom_cgi` "not defined".
    public var deviceModel: String
    /// 0 picks a free port.
    public var port: UInt16
    /// Every response waits this long first (a slow or overloaded panel).
    public var delayMs: Int
    /// `images_cgi` sends bytes that are not a JPEG, still labelled image/jpeg.
    public var brokenJPEG: Bool
    /// `images_cgi` sends the first half of a real JPEG.
    public var truncatedJPEG: Bool
    /// Every CGI answers 500 Internal Server Error.
    public var serverError: Bool
    /// When > 0, `images_cgi` sends this many MB, chunked (no Content-Length).
    public var hugeBodyMB: Int
    /// How long a relay stays "active" on the alarm stream after an open.
    public var relayMs: Int
    /// An idle alarm stream sends a blank line this often; 0 (the default) never does, as no
    /// public source shows a real panel doing (the server peeks at the socket to notice a client
    /// that went away instead).
    public var keepAliveMs: Int
    /// False: firmware without the alarm stream, which answers `alarmchangestate_cgi` with
    /// 200 and one line "alarmchangestate_cgi is not defined", then closes.
    public var alarmStream: Bool
    /// DS family: the relays it has (1 = a one-relay DS06, which refuses `Output=1` and up with
    /// its own words instead of `OK`).
    public var relays: Int
    /// DKS family: also report door relays on the alarm stream (unconfirmed on real DKS, so off).
    public var dksRelayAlarm: Bool
    /// The account may open doors and watch but not read `systeminfo_cgi` (answered 401), as a
    /// "Door"/"View"-only user of `pwdgrp_cgi` might (unconfirmed: docs/BEWARD.md checklist).
    public var restrictedAccount: Bool
    /// The snapshot's size: 640×480 for tests; `simulate-panel` serves 1280×720 as a DKS does.
    public var snapshotWidth: Int
    public var snapshotHeight: Int
    /// The camera over RTSP (`SimulatedPanel` starts it): the port, 0 = any free one; nil = no RTSP
    /// server (the default in process, so tests that only need HTTP and SIP never start GStreamer).
    /// `rtsp_cgi?action=get` answers it as `RtspPort`.
    public var rtspPort: UInt16?
    /// The SIP account `sip_cgi?action=get` reports (`AccUser1`): the user the panel calls from.
    /// `SimulatedPanel.start` fills it from its SIP options; nil answers an empty account, as a
    /// panel whose SIP was never set up does.
    public var sipUser: String?

    public init(
        user: String = "admin",
        password: String = "admin",
        auth: Auth = .digest,
        deviceModel: String = "DKS15120_rev5.2.4.2",
        port: UInt16 = 0,
        delayMs: Int = 0,
        brokenJPEG: Bool = false,
        truncatedJPEG: Bool = false,
        serverError: Bool = false,
        hugeBodyMB: Int = 0,
        relayMs: Int = 1000,
        keepAliveMs: Int = 0,
        rtspPort: UInt16? = nil,
        sipUser: String? = nil,
        alarmStream: Bool = true,
        relays: Int = 3,
        dksRelayAlarm: Bool = false,
        restrictedAccount: Bool = false,
        snapshotWidth: Int = SyntheticFrame.width,
        snapshotHeight: Int = SyntheticFrame.height
    ) {
        self.user = user
        self.password = password
        self.auth = auth
        self.deviceModel = deviceModel
        self.port = port
        self.delayMs = delayMs
        self.brokenJPEG = brokenJPEG
        self.truncatedJPEG = truncatedJPEG
        self.serverError = serverError
        self.hugeBodyMB = hugeBodyMB
        self.relayMs = relayMs
        self.keepAliveMs = keepAliveMs
        self.rtspPort = rtspPort
        self.sipUser = sipUser
        self.alarmStream = alarmStream
        self.relays = relays
        self.dksRelayAlarm = dksRelayAlarm
        self.restrictedAccount = restrictedAccount
        self.snapshotWidth = snapshotWidth
        self.snapshotHeight = snapshotHeight
    }

    /// The faults the server starts with; `SimulatedPanelHTTPServer.setFaults` changes them later.
    public var faults: SimulatedPanelFaults {
        SimulatedPanelFaults(delayMs: delayMs, brokenJPEG: brokenJPEG, truncatedJPEG: truncatedJPEG, serverError: serverError)
    }

    /// DS-family firmware has no intercom_cgi.
    var isDSFamily: Bool { PanelFamily(deviceModel: deviceModel) == .ds }
}

/// A door the simulated panel was asked to open.
public struct SimulatedDoorEvent: Sendable, Equatable, CustomStringConvertible {
    public let door: Door
    /// How it was opened: "http" (a CGI call) or "dtmf" (a door digit in a SIP call).
    public let method: String

    public init(door: Door, method: String) {
        self.door = door
        self.method = method
    }

    public var description: String { "door opened (\(door), method: \(method))" }
}

public enum SimulatorError: Error, Sendable, CustomStringConvertible {
    /// libmicrohttpd refused to start, usually because the port is taken.
    case cannotStart(port: UInt16)
    /// The operator simulator cannot listen there (address not local, port in use).
    case cannotListen(host: String, port: UInt16)
    /// The simulated panel's RTSP camera cannot start (GStreamer or a plugin missing, port in use).
    case cannotStartRTSP(port: UInt16, reason: String)
    /// The simulated operator's cameras cannot start (GStreamer or a plugin missing).
    case cannotStartCameras(reason: String)

    public var description: String {
        switch self {
        case .cannotStart(let port):
            return "the simulated panel cannot listen on 127.0.0.1:\(port) (port in use?)"
        case .cannotListen(let host, let port):
            return "the simulated operator cannot listen on \(host.contains(":") ? "[\(host)]" : host):\(port) (port in use, or not an address of this machine?)"
        case .cannotStartRTSP(let port, let reason):
            return "the simulated panel's RTSP camera cannot start on 127.0.0.1:\(port): \(reason)"
        case .cannotStartCameras(let reason):
            return "the simulated operator's cameras cannot start: \(reason)"
        }
    }
}
