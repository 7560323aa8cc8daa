import Foundation
import IntercomCore
import IntercomOperator
@testable import IntercomSimulator
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase
import IntercomPhone
import IntercomImaging

/// Operator doors in the engine: listed beside the panels, opened through the operator's API by
/// `IntercomCommand.open` with a door id, and calls from the operator's panel through the
/// `[sip] account`'s registrar named as that door, opened by DTMF. Against `SimulatedOperator`
/// (the mobile API) driving a simulated panel's HTTP API, and a real liblinphone caller.
@Suite(.removesTestFolders) struct IntercomOperatorTests {
    struct Setup {
        var panel: SimulatedPanelHTTPServer
        var simulator: SimulatedOperator
        var intercom: Intercom
        var events: EventRecorder<IntercomEvent>
        var tokens: OperatorTokenStore

        func stop() async {
            await intercom.stop()
            simulator.stop()
            panel.stop()
        }

        /// `caller` rings the flat's account once the door list is known, as the operator's Asterisk
        /// passes a panel's call on.
        func ring(from caller: Phone) async throws -> CallID {
            await intercom.refreshOperatorDoors()
            let port = await intercom.listening.first?.port ?? 0
            return try await caller.call("sip:4000000001@127.0.0.1:\(port)", video: false)
        }

        func doorOpened() async throws -> (owner: String, door: String, method: String, ok: Bool, error: String?) {
            try await events.wait("door_opened") { e -> (String, String, String, Bool, String?)? in
                if case .doorOpened(let owner, _, let door, let method, _, let ok, let error) = e.kind {
                    (owner, door, method, ok, error)
                } else { nil } }
        }
    }

    /// `login`: the test phone logs in as `intercom login home` would and the token is stored.
    /// `registrar`: `[sip] account` names 127.0.0.1 as its registrar (nothing answers there), so a
    /// loopback caller counts as one that came through it.
    static func setup(login: Bool = true, api: String? = nil, registrar: Bool = false,
                      open: OperatorOpenMethod = .dtmf, cameraServer: String? = nil) async throws -> Setup {
        let panel = SimulatedPanelHTTPServer(options: SimulatedPanelOptions(user: "admin", password: "admin", auth: .basic))
        try panel.start()
        var options = SimulatedOperatorOptions()
        options.panel = OperatorPanelTarget(url: panel.baseURL, user: "admin", password: "admin")
        options.cameraServer = cameraServer
        let simulator = try SimulatedOperator.start(options)
        let op = OperatorConfig(name: "home", api: api ?? simulator.baseURL, phone: "79123456781", open: open)
        let tokens = OperatorTokenStore(directory: PhoneTestSupport.tempDirectory("operator-tokens") + "/operators")
        if login {
            // Always at the simulator: `api` may name an operator that is gone.
            let client = try OperatorClient(config: OperatorConfig(name: "home", api: simulator.baseURL), token: nil)
            _ = try await client.requestCode(phone: "79123456781", deviceId: "test-device", method: .sms)
            let grant = try await client.confirmCode(phone: "79123456781", code: "1001", deviceId: "test-device")
            try tokens.save(OperatorCredentials(deviceId: "test-device", token: grant.token), for: "home")
        }
        var sip = SIPSettings(listen: [ListenAddress(transport: .udp, host: "127.0.0.1", port: 0)], unknownCallers: .reject)
        if registrar {
            let nobody = try FreePort.udpAndTCP()
            sip.account = SIPAccount(identity: "sip:4000000001@127.0.0.1:\(nobody)", password: "flat-secret")
        }
        let config = IntercomConfig(sip: sip, operators: [op], daemon: DaemonSettings(socketPath: "/tmp/unused.sock"))
        var settings = PhoneSettings(config: config, environment: [:])
        settings.dataDirectory = PhoneTestSupport.tempDirectory("intercom")
        settings.audio = .files(play: nil, record: nil)
        let intercom = Intercom(config: config, phoneSettings: settings, logger: .silent, operatorTokens: tokens)
        let events = EventRecorder(intercom.bus.subscribe())
        try await intercom.start()
        return Setup(panel: panel, simulator: simulator, intercom: intercom, events: events, tokens: tokens)
    }

    @Test func operatorDoorsAreListedAndOpenThroughTheAPI() async throws {
        let s = try await Self.setup()
        try await withCleanup({ await s.stop() }) {
            await s.intercom.refreshOperatorDoors()
            guard case .array(let listed) = try await s.intercom.execute(.doors) else {
                Issue.record("doors is no list")
                return
            }
            let doors = listed.compactMap(DoorListing.init(json:)).filter { $0.source == .operator }
            #expect(doors.map(\.id) == ["home:1:0", "home:1:1"], "\(doors)")
            #expect(doors.first?.source == .operator && doors.first?.owner == "home")
            let reply = try await s.intercom.execute(.open(panel: "home:1:0", door: .main, by: .ctl))
            #expect(reply["operator"]?.stringValue == "home" && reply["door"]?.stringValue == "home:1:0")
            let opened = try await s.doorOpened()
            #expect(opened.owner == "home" && opened.door == "home:1:0" && opened.method == "operator" && opened.ok)
            #expect(s.panel.requestCount("intercom_cgi?action=maindoor") == 1)
            #expect(s.simulator.requestCount("address/openDoor") == 1)
            // The status lists the doors too.
            let status = try await s.intercom.execute(.status)
            guard case .array(let listed) = status["doors"] else { Issue.record("no doors in \(status)"); return }
            #expect(listed.compactMap { $0["id"]?.stringValue } == ["home:1:0", "home:1:1"])
        }
    }

    @Test func aCallFromTheOperatorsPanelIsItsDoorAndOOpensItByDTMF() async throws {
        let s = try await Self.setup(registrar: true)
        let (caller, callerEvents) = try await PhoneTestSupport.phone("100001")
        try await withCleanup({ await caller.stop(); await s.stop() }) {
            let outgoing = try await s.ring(from: caller)
            let incoming = try await s.events.wait("call_incoming") { e -> IntercomEvent.CallRef? in
                if case .callIncoming(let c) = e.kind { c } else { nil } }
            #expect(incoming.panel == "home:1:0")
            // `o` while it rings (the screen names the shown call's door): answered muted, the door's digit, hung up.
            let reply = try await s.intercom.execute(.open(panel: incoming.panel, door: .main, by: .key))
            #expect(reply["door"]?.stringValue == "home:1:0")
            let digit = try await callerEvents.wait("DTMF at the caller") { $0.dtmf(outgoing) }
            #expect(digit == "1")
            let opened = try await s.doorOpened()
            #expect(opened.owner == "home" && opened.door == "home:1:0" && opened.method == "dtmf" && opened.ok)
            _ = try await callerEvents.wait("the call ends") { $0.ended(outgoing) }
            #expect(s.simulator.requestCount("address/openDoor") == 0)
        }
    }

    @Test func anOperatorCallShowsItsEntranceCameraWhileItRings() async throws {
        let folder = try await HLSTestFolder.start()
        let s = try await Self.setup(registrar: true, cameraServer: "http://127.0.0.1:\(folder.port)")
        let (caller, _) = try await PhoneTestSupport.phone("100001")
        try await withCleanup({ await caller.stop(); await s.stop(); await folder.stop() }) {
            _ = try await s.ring(from: caller)
            let incoming = try await s.events.wait("call_incoming") { e -> IntercomEvent.CallRef? in
                if case .callIncoming(let c) = e.kind { c } else { nil } }
            #expect(s.simulator.requestCount("cctv/camMap") >= 1)
            // A screen showing the call asks for its picture's size, as for a panel's call.
            s.intercom.peephole.want(panel: "home:1:0", size: PixelSize(width: 160, height: 120))
            var frame: PeepholeFrame?
            await TestPatience.eventually(within: .seconds(10), every: .milliseconds(50)) {
                frame = s.intercom.peephole.latest(panel: "home:1:0")
                return frame?.kind == .live
            }
            #expect(frame?.kind == .live, "the entrance camera's HLS never played for the call")
            #expect(frame?.call == incoming.id)
            #expect(frame.map { $0.image.width <= 160 && $0.image.height <= 120 } ?? false)
        }
    }
}
