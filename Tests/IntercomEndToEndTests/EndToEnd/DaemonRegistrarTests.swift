import Foundation
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport

/// The daemon with a `[sip] account`: registering at a loopback kamailio, taking a panel call routed
/// through it, and reporting a registrar it cannot reach.
@Suite("daemon: registrar", .removesTestFolders) struct DaemonRegistrarTests {
    @Test("registers at kamailio; a panel call through kamailio is recognised by the registrar's address and auto-answered; the same call sent directly from elsewhere is refused")
    func registersAndTakesCallsThroughRegistrar() async throws {
        let kamailio = try Kamailio()
        try await kamailio.start()
        let account = "sip:resident@\(kamailio.hostPort)"
        let daemon = try DaemonProcess(config: """
            [sip]
            listen = udp:127.0.0.1:0, tcp:127.0.0.1:0
            account = \(account)
            proxy = \(kamailio.uri)

            [panel entrance]
            # The panel's own address is not the registrar's: its calls are known through the registrar.
            url = http://127.0.0.3:9
            match = sip:100001@
            auto_answer = on
            """, name: "registrar")
        try await daemon.waitUntilStarted()
        let registered = try await daemon.waitForEvent("registered", timeout: .seconds(10))
        #expect(registered.string("account") == account, "\(registered)")

        let panel = try await Sipp.run(
            scenario: BewardScenarios.panelCall(hangupAfter: .seconds(1)), name: "panel-via-kamailio",
            remote: kamailio.hostPort, service: "resident", timeout: .seconds(15))
        #expect(panel.succeeded, "\(panel)\n\(kamailio.log)\n\(daemon.log)")
        _ = try await DaemonEventChecks.expectAutoAnsweredCall(daemon, panel: "entrance", from: "sip:100001@")

        // The same panel's From, sent straight to us from an address that is neither the panel's
        // nor the registrar's.
        let forged = try await Sipp.run(
            scenario: BewardScenarios.expectRejected(), name: "forged", remote: try daemon.hostPort(),
            service: "resident", timeout: .seconds(10), localHost: "127.0.0.2")
        #expect(forged.succeeded && forged.messages.contains("SIP/2.0 403"), "\(forged)\n\(daemon.log)")
        #expect(daemon.names.filter { $0 == "call_incoming" }.count == 1, "\(daemon.events)")
        DaemonEventChecks.expectWellFormed(daemon)
        await daemon.stop()
        await kamailio.stop()
    }

    @Test("a registrar nobody listens on gives registration_failed quickly (TCP: connection refused)")
    func unreachableRegistrarFails() async throws {
        let closed = try FreePort.udpAndTCP()  // handed out to nobody else and never bound
        let account = "sip:resident@127.0.0.1:\(closed)"
        let daemon = try DaemonProcess(config: """
            [sip]
            listen = udp:127.0.0.1:0, tcp:127.0.0.1:0
            account = \(account)
            proxy = sip:127.0.0.1:\(closed);transport=tcp
            """, name: "regfail")
        try await daemon.waitUntilStarted()
        let failed = try await daemon.waitForEvent("registration_failed", timeout: .seconds(20))
        #expect(failed.string("account") == account, "\(failed)")
        #expect(!daemon.names.contains("registered"), "\(daemon.events)")
        DaemonEventChecks.expectWellFormed(daemon)
        await daemon.stop()
    }

    @Test("a registrar that comes up after a failure is registered at by the retry (1 s, doubling)")
    func registrationRecoversWhenRegistrarComesUp() async throws {
        let port = try FreePort.udpAndTCP()
        let kamailio = try Kamailio(port: port)
        let account = "sip:resident@127.0.0.1:\(port)"
        let daemon = try DaemonProcess(config: """
            [sip]
            listen = udp:127.0.0.1:0, tcp:127.0.0.1:0
            account = \(account)
            proxy = sip:127.0.0.1:\(port);transport=tcp
            """, name: "regretry")
        try await daemon.waitUntilStarted()
        try await daemon.waitForEvent("registration_failed", timeout: .seconds(10))
        // Down for longer than the first retry (1 s), so the retry chain has to keep going.
        try await Task.sleep(for: .seconds(4))
        try await kamailio.start()
        let clock = ContinuousClock()
        let upAt = clock.now
        // Retries at 1, 2, 4, 8 s after each failure: the registrar is found within ~8 s of coming up.
        let registered = try await daemon.waitForEvent("registered", timeout: .seconds(12))
        #expect(registered.string("account") == account, "\(registered)")
        print("registered \(clock.now - upAt) after the registrar came up; events: \(daemon.names)")
        DaemonEventChecks.expectWellFormed(daemon)
        await daemon.stop()
        await kamailio.stop()
    }

    /// `intercom config --example` pairs `listen = udp:…` with `proxy = …;transport=tcp`: the phone
    /// opens a TCP transport of its own for the proxy and registers.
    @Test("UDP-only listen with a TCP proxy (as in the example config) registers, or is refused as a config error")
    func udpListenWithTCPProxy() async throws {
        let kamailio = try Kamailio()
        try await kamailio.start()
        let daemon = try DaemonProcess(config: """
            [sip]
            listen = udp:127.0.0.1:0
            account = sip:resident@\(kamailio.hostPort)
            proxy = sip:\(kamailio.hostPort);transport=tcp
            """, name: "udptcp")
        await TestPatience.eventually(within: .seconds(10), every: .milliseconds(50)) {
            daemon.names.contains("registered") || !daemon.process.isRunning
        }
        if daemon.process.isRunning {
            #expect(daemon.names.contains("registered"), "never registered: \(daemon.events)\n\(kamailio.log)")
        } else {
            #expect(daemon.process.exitStatus == 65 && daemon.process.stderr.contains("proxy"),
                    "exited without a config error naming 'proxy'\n\(daemon.log)")
        }
        await daemon.stop()
        await kamailio.stop()
    }
}
