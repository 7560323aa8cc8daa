import Foundation
import IntercomPhoneTestSupport
import Testing
import IntercomSimulator
import IntercomTestSupport

/// `intercom doctor` checks what `watch`, the hooks and Home Assistant need (issue 25): each panel's
/// stream answers a DESCRIBE, each hook program exists and is executable, the MQTT broker takes the
/// login; `config --check` refuses a hook that is not there. Everything on loopback.
@Suite("doctor: streams, hooks, broker", .serialized, .removesTestFolders)
struct DoctorServicesTests {
    @Test("a playing stream, a dead one, hooks missing and not executable, a broker refusing, accepting, gone")
    func doctorSaysWhatWillFail() async throws {
        let dir = try TestDirectory(prefix: "doctor-services")
        let rtsp = try SimulatedPanelRTSPServer.start(user: "admin", password: "admin", auth: .digest)
        let http = SimulatedPanelHTTPServer(options: SimulatedPanelOptions(rtspPort: rtsp.port))
        _ = try http.start()
        let broker = try await Mosquitto(users: ["intercom": "right"])
        try await broker.start()
        try await withCleanup({
            http.stop()
            rtsp.stop()
            await broker.stop()
        }) {
            let present = try HookScript.create("#!/bin/sh\nexit 0\n", named: "present.sh", in: dir)
            let plain = try dir.write("#!/bin/sh\nexit 0\n", to: "plain.sh").path
            let closed = try FreePort.udpAndTCP()
            func config(mqttPassword: String) throws -> String {
                try IntercomBinary.writeConfig("""
                    [sip]
                    listen = udp:127.0.0.1:0

                    [panel porch]
                    url = \(http.baseURL)
                    password = admin
                    rtsp = \(rtsp.url())

                    [panel gate]
                    url = \(http.baseURL)
                    password = admin
                    rtsp = rtsp://127.0.0.1:\(closed)/av0_0

                    [hooks]
                    on_call_incoming = \(present)
                    on_door_opened = \(dir.path)/missing.sh
                    on_call_ended = \(plain)

                    [mqtt]
                    url = \(broker.url)
                    user = intercom
                    password = \(mqttPassword)
                    """, in: dir, name: "config-\(mqttPassword.count).ini").path
            }
            let wrong = try config(mqttPassword: "not-the-password")
            let doctor = try await IntercomBinary.run(["doctor", "--config", wrong], in: dir, timeout: .seconds(60))
            let out = doctor.stdout
            #expect(out.contains("ok  porch: \(rtsp.url()) answers"), "\(out)")
            #expect(out.contains("!!  gate: stream rtsp://127.0.0.1:\(closed)/av0_0 is unavailable: connection refused")
                    && out.contains("check [panel gate] rtsp"), "\(out)")
            #expect(out.contains("on_door_opened = \(dir.path)/missing.sh: no such file"), "\(out)")
            #expect(out.contains("on_call_ended = \(plain): not executable; run 'chmod +x \(plain)'"), "\(out)")
            #expect(out.contains("ok  1 hook program(s) present and executable"), "\(out)")
            #expect(out.contains("!!  broker 127.0.0.1:\(broker.port) refused the login as intercom"), "\(out)")
            #expect(!out.contains("not-the-password"), "the broker's password was shown: \(out)")
            // The most telling exit code: the refused login.
            #expect(doctor.status == 77, "\(doctor)")

            let right = try config(mqttPassword: "right")
            let accepted = try await IntercomBinary.run(["doctor", "--config", right], in: dir, timeout: .seconds(60))
            #expect(accepted.stdout.contains("ok  broker 127.0.0.1:\(broker.port) accepts the connection as intercom"),
                    "\(accepted.stdout)")
            await broker.stop()
            let gone = try await IntercomBinary.run(["doctor", "--config", right], in: dir, timeout: .seconds(60))
            #expect(gone.stdout.contains("!!  broker 127.0.0.1:\(broker.port) cannot be reached"), "\(gone.stdout)")

            let check = try await IntercomBinary.run(["config", "--check", "--config", right], in: dir)
            #expect(check.status == 65 && !check.stdout.contains("config ok"), "\(check)")
            #expect(check.stderr.contains("on_door_opened = \(dir.path)/missing.sh: no such file; install it or remove the line"),
                    "\(check.stderr)")
            #expect(check.stderr.contains("on_call_ended = \(plain): not executable"), "\(check.stderr)")
        }
    }
}
