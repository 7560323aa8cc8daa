import Foundation

/// How the simulated SmartYard operator behaves, including the faults tests inject.
public struct SimulatedOperatorOptions: Sendable {
    /// How a login is confirmed: a PIN by SMS, or a call from the user's phone to the operator.
    public enum ConfirmMethod: String, Sendable, CaseIterable {
        case sms
        case outgoingCall
    }

    /// An IPv4 or IPv6 literal; loopback unless asked otherwise.
    public var host: String
    /// 0 picks a free port.
    public var port: UInt16
    /// The test number (the server's `test_numbers`): PIN `testCode`, never 429, owns the flat.
    public var testPhone: String
    public var testCode: String
    /// The zone `ext/options` names (`mobile.time_zone` of the server's config); the server uses it
    /// for nothing this simulator has.
    public var timeZone: TimeZone
    /// PHP's default zone (`date.timezone`): the server writes `plog.date` and `autoOpen`, and
    /// reads `expire`, in it. A stock PHP has UTC, whatever `ext/options` says.
    public var phpTimeZone: TimeZone
    /// Where `address/openDoor` sends the panel's door requests; nil sends none (the 204 is the same).
    public var panel: OperatorPanelTarget?
    /// The fault answers, and which methods meet them.
    public var faults: SimulatedOperatorFaults
    /// Each access token answers this many authorised requests, then 401 (as if an admin removed the
    /// device); nil = never.
    public var revokeAfter: Int?
    /// The flat is blocked for non-payment (`autoBlock`): doors carry `blocked`, openDoor answers 404, plog 402.
    public var blocked: Bool
    /// The flat is blocked by an administrator (`adminBlock`): openDoor answers 404, plogDays and plog
    /// 403, where an automatic block is 402 (plogDays.php, plog.php).
    public var adminBlocked = false
    /// How many devices (device tokens) one phone may log in from.
    public var deviceLimit: Int
    /// The server's confirmation method, used when a client's `requestCode` names none:
    /// "sms" (a PIN) or "outgoingCall" (the user phones one of `confirmationNumbers`, then `checkPhone`);
    /// the server's own default is outgoingCall.
    public var confirmMethod: ConfirmMethod
    /// How many addresses (houses) the test subscriber has, each with a flat, two doors on its own
    /// entrance panel and a camera; at least 1. Every door's requests go to the same `panel`.
    public var addresses: Int
    /// Where the houses' cameras stream from, each at `BASE/camID` (a Flussonic-shaped server, e.g.
    /// a test's HLS folder); nil hands out the simulator's own `{root}/cctv/ID`.
    public var cameraServer: String?
    /// Whether `cctv/all`'s cameras play (live HLS and a preview from a GStreamer pipeline each,
    /// started by the first request for it); off, their URLs answer 404 and GStreamer is not needed.
    public var cameras: Bool
    /// The entrance's camera recognises faces and plates: `address/intercom` then shows
    /// `FRSDisabled` and `LPRSDisabled` (computed, never read from a request).
    public var recognition: Bool
    /// Messages in the test phone's inbox at start, unread (`inbox/unreaded`, `inbox/inbox`).
    public var messages: [String] = []
    /// How many entrances the first house's panel serves, each with its own camera (1–4): `cctv/camMap`
    /// then lists that panel once per entrance, as the server lists a panel shared by entrances.
    public var panelEntrances: Int = 1
    /// The flat's entry code at start (`openCode`); "00000" is the server's "no code": `getSettingsList`
    /// then leaves `doorCode` out and `address/intercom` shows "00000".
    public var doorCode: String = "12345"
    /// RFID keys of the flat (`houses_rfids` with access type 2), which `getSettingsList` lists to the
    /// flat's owner under `keys`.
    public var keys: [String] = ["0000000A1B2C3D"]
    /// A second subscriber of the test phone's flats who is not their owner (role 1, a resident
    /// the owner shared the flat with), logging in with `residentCode`; nil: none. `address/access`
    /// then follows the PHP's owner-only rule for them: they may add a guest, not remove one.
    public var residentPhone: String?
    public var residentCode = "1002"

    public init(host: String = "127.0.0.1", port: UInt16 = 0, testPhone: String = "79123456781",
                testCode: String = "1001", timeZone: TimeZone = TimeZone(identifier: "Europe/Moscow") ?? .current,
                phpTimeZone: TimeZone = TimeZone(secondsFromGMT: 0) ?? .current,
                panel: OperatorPanelTarget? = nil, faults: SimulatedOperatorFaults = .init(),
                revokeAfter: Int? = nil, blocked: Bool = false, deviceLimit: Int = 10,
                confirmMethod: ConfirmMethod = .outgoingCall, addresses: Int = 1, cameras: Bool = true,
                recognition: Bool = false) {
        self.host = host
        self.port = port
        self.testPhone = testPhone
        self.testCode = testCode
        self.timeZone = timeZone
        self.phpTimeZone = phpTimeZone
        self.panel = panel
        self.faults = faults
        self.revokeAfter = revokeAfter
        self.blocked = blocked
        self.deviceLimit = deviceLimit
        self.confirmMethod = confirmMethod
        self.addresses = max(1, addresses)
        self.cameras = cameras
        self.recognition = recognition
    }
}
