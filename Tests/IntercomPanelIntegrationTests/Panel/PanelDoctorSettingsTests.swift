import Foundation
@testable import IntercomSimulator
import Testing
import IntercomPanel
import IntercomTestSupport

/// `intercom doctor` reads what the panel knows: its own SIP registration (`AccountReg1`), and
/// whether its firmware has the alarm stream (said, not failed: doors and calls still work).
@Suite struct PanelDoctorSettingsTests {
    @Test func doctorSaysRegistrationAndAMissingAlarmStream() async throws {
        let porch = SimulatedPanelHTTPServer(options: .init(sipUser: "100001"))
        let gate = SimulatedPanelHTTPServer(options: .init(alarmStream: false))
        _ = try porch.start()
        defer { porch.stop() }
        _ = try gate.start()
        defer { gate.stop() }
        let directory = try TestDirectory(prefix: "intercom-doctor-firmware")
        let config = try IntercomBinary.writeConfig("""
            [sip]
            listen = udp:127.0.0.1:0

            [panel porch]
            url = \(porch.baseURL)
            password = admin
            rtsp = off

            [panel gate]
            url = \(gate.baseURL)
            password = admin
            rtsp = off
            """, in: directory, name: "config.ini")
        let doctor = try await IntercomBinary.run(["doctor", "--config", config.path], in: directory, timeout: .seconds(60))
        let out = doctor.stdout
        #expect(out.contains("porch: the panel's own SIP account is registered (AccountReg1=1)"), "\(out)")
        #expect(out.contains("porch: alarm stream open"), "\(out)")
        #expect(out.contains("gate: the panel's own SIP account is not registered (AccountReg1=0)"), "\(out)")
        #expect(out.contains("gate: panel gate has no alarm stream (alarmchangestate_cgi answered "
            + "\"alarmchangestate_cgi is not defined\")"), "\(out)")
        #expect(gate.requestCount("alarmchangestate_cgi") == 1)
    }
}
