import Foundation
@testable import IntercomSimulator
import Testing
import IntercomImaging
import IntercomBase

/// The simulated panel's CGI answers are as unkind as firmware's (docs/BEWARD.md "What the
/// simulators do"): each quirk here once had a friendlier answer that hid a client bug.
@Suite struct SimulatedFirmwareRouteTests {
    private static func answer(_ options: SimulatedPanelOptions = .init(), _ cgi: String,
                               _ query: [String: String] = [:]) -> SimulatedResponse {
        SimulatorCore(options: options).route(cgi: cgi) { query[$0] }
    }

    private static func text(_ response: SimulatedResponse) -> (UInt32, String)? {
        if case .text(let status, let body) = response { (status, body) } else { nil }
    }

    @Test func anUnknownCGIIsTwoHundredAndNotDefined() {
        let reply = Self.text(Self.answer(.init(), "extrfid_cgi", ["action": "list"]))
        #expect(reply?.0 == 200)
        #expect(reply?.1 == "extrfid_cgi is not defined\n")
    }

    @Test func firmwareWithoutTheAlarmStreamSaysSo() {
        let reply = Self.text(Self.answer(.init(alarmStream: false), "alarmchangestate_cgi"))
        #expect(reply?.0 == 200)
        #expect(reply?.1 == "alarmchangestate_cgi is not defined\n")
        guard case .alarmStream = Self.answer(.init(), "alarmchangestate_cgi") else {
            Issue.record("the default panel has the stream")
            return
        }
    }

    @Test func aOneRelayDSRefusesTheSecondRelayInItsOwnWords() {
        let ds = SimulatedPanelOptions(deviceModel: "DS06M_rev2", relays: 1)
        #expect(Self.text(Self.answer(ds, "alarmout_cgi", ["action": "set", "Output": "0", "Status": "1"]))?.1 == "OK\r\n")
        let refused = Self.text(Self.answer(ds, "alarmout_cgi", ["action": "set", "Output": "1", "Status": "1"]))
        #expect(refused?.0 == 200)
        #expect(refused?.1 == "Error: Output 1 is not available\n")
    }

    @Test func snapshotsTakeTheConfiguredSize() throws {
        guard case .jpeg(let big) = Self.answer(.init(snapshotWidth: 1280, snapshotHeight: 720), "images_cgi") else {
            Issue.record("no JPEG")
            return
        }
        #expect(try JPEG.size(of: big) == PixelSize(width: 1280, height: 720))
        guard case .jpeg(let small) = Self.answer(.init(), "images_cgi") else {
            Issue.record("no JPEG")
            return
        }
        #expect(try JPEG.size(of: small) == PixelSize(width: 640, height: 480))
    }

    /// A DKS's door opens are not on its alarm stream unless asked; a DS names the relay (1-based).
    @Test func relayAlarmsOnlyWhereThePanelReportsThem() {
        func lines(_ options: SimulatedPanelOptions, _ door: Door) -> String {
            let core = SimulatorCore(options: .init(deviceModel: options.deviceModel, relayMs: 60_000,
                                                    dksRelayAlarm: options.dksRelayAlarm))
            let sink = AlarmSubscriber()
            core.addSubscriber(sink)
            core.doorOpened(door)
            var buffer = [UInt8](repeating: 0, count: 512)
            let n = buffer.withUnsafeMutableBytes { $0.baseAddress.map { sink.drain(into: $0, max: 512) } ?? 0 }
            return String(decoding: buffer.prefix(n), as: UTF8.self)
        }
        #expect(lines(.init(), .main) == "")
        let dks = lines(.init(dksRelayAlarm: true), .alt)
        #expect(dks.hasSuffix(";SensorOutAlarm;1;2\n"), "\(dks)")
        let ds = lines(.init(deviceModel: "DS06M_rev2"), .main)
        #expect(ds.hasSuffix(";SensorOutAlarm;1;1\n"), "\(ds)")
        #expect(!ds.contains("\r"))
    }

    @Test func noKeepAlivesByDefault() {
        #expect(SimulatedPanelOptions().keepAliveMs == 0)
    }
}
