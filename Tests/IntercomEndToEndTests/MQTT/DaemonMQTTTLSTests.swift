import Foundation
import IntercomPhoneTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport

/// `mqtts://` against a real mosquitto with a TLS listener and certificates openssl makes here:
/// the password goes out encrypted or not at all. The right CA connects; a wrong one is refused in
/// words; a CA file that cannot be read stops the connection before TCP, at start and at a later
/// reconnect; without `ca_file` the first bytes on the wire are a TLS handshake.
@Suite("daemon: MQTT over TLS", .removesTestFolders) struct DaemonMQTTTLSTests {
    static let secret = "s3cretMQTT-horse"

    /// A daemon config for `mqtts://127.0.0.1:port` with the intercom's login, no panel, and `extra` `[mqtt]` lines.
    static func config(port: UInt16, extra: String = "") -> String {
        """
        [sip]
        listen = udp:127.0.0.1:0

        [mqtt]
        url = mqtts://127.0.0.1:\(port)
        user = intercom
        password = \(secret)

        """ + extra
    }

    @Test("the right ca_file connects; a wrong one is refused as 'not signed by [mqtt] ca_file', nothing sent")
    func rightAndWrongCA() async throws {
        let certificates = try await TestCertificates(directory: TestDirectory(prefix: "intercom-mqtt-tls"))
        let (otherCA, _) = try await certificates.clientCertificate()
        let broker = try await Mosquitto(users: ["intercom": Self.secret], tls: certificates.server)
        try await broker.start()
        let login = "user = intercom\npassword = \(Self.secret)\n"
        let right = try DaemonProcess(config: MQTTRig.config(broker: broker, mqtt: login + "ca_file = \(certificates.server.certificate)\n"),
                                      name: "mqtt-tls-right")
        try await withCleanup({ await right.stop(); await broker.stop() }) {
            try await MQTTRig.waitConnected(right)
            #expect(right.process.stderr.contains("(TLS)"), "\(right.log)")
            #expect(await right.stop() == 0)

            let wrong = try DaemonProcess(config: MQTTRig.config(broker: broker, mqtt: login + "ca_file = \(otherCA)\n"),
                                          name: "mqtt-tls-wrong")
            try await withCleanup({ await wrong.stop() }) {
                let expected = "the broker's certificate is not signed by [mqtt] ca_file \(otherCA)"
                try await wrong.process.waitForOutput(containing: expected, in: .stderr, timeout: .seconds(15))
                let log = wrong.log
                #expect(!log.contains("mqtt: connected"), "\(log)")
                #expect(!log.contains("A TLS error occurred") && !log.contains("Invalid function arguments"), "\(log)")
                #expect(log.contains("nothing was sent"), "\(log)")
                #expect(wrong.process.isRunning, "calls matter more than MQTT: the daemon keeps running")
            }
            // The broker saw a failed handshake, never a CONNECT from the wrong-CA client.
            #expect(broker.log.components(separatedBy: "New client connected").count - 1 == 1, "\(broker.log)")
        }
    }

    @Test("an unreadable ca_file: config --check and the daemon refuse it, and no TCP connection is ever opened")
    func unreadableCAFileAtStart() async throws {
        let listener = try SilentListener()
        let directory = try TestDirectory(prefix: "intercom-mqtt-noca")
        let missing = directory.file("gone/ca.pem").path
        let config = Self.config(port: listener.port, extra: "ca_file = \(missing)\n")
        let url = try IntercomBinary.writeConfig(config, in: directory)
        let check = try await IntercomBinary.run(["config", "--check", "--config", url.path], in: directory)
        #expect(check.status == 65, "\(check)")
        #expect(check.stderr.contains("key 'ca_file' in [mqtt]: \(missing): cannot read it"), "\(check.stderr)")
        #expect(!check.stdout.contains("config ok"), "\(check.stdout)")

        let daemon = try DaemonProcess(config: config, name: "mqtt-tls-noca")
        let status = try await daemon.process.waitForExit(timeout: .seconds(15))
        #expect(status == 65, "\(daemon.log)")
        #expect(daemon.process.stderr.contains("\(missing): cannot read it"), "\(daemon.log)")

        // A file that is there but holds no certificate is refused the same way.
        let notPEM = try directory.write("not a certificate\n", to: "ca.txt").path
        let doctorConfig = try IntercomBinary.writeConfig(config.replacingOccurrences(of: missing, with: notPEM), in: directory,
                                                          name: "notpem.ini")
        let doctor = try await IntercomBinary.run(["doctor", "--config", doctorConfig.path], in: directory, timeout: .seconds(30))
        #expect(doctor.status == 65 && doctor.stdout.contains("\(notPEM): holds no PEM certificate"), "\(doctor)")
        #expect(listener.pendingConnections() == 0, "something connected to the broker's port")
    }

    @Test("the ca_file gone after start: the reconnect is not made (a plain listener on the port sees no connection)")
    func caFileGoneBeforeReconnect() async throws {
        let certificates = try await TestCertificates(directory: TestDirectory(prefix: "intercom-mqtt-tls-gone"))
        let ca = certificates.directory.file("broker-ca.pem").path
        try FileManager.default.copyItem(atPath: certificates.server.certificate, toPath: ca)
        let broker = try await Mosquitto(users: ["intercom": Self.secret], tls: certificates.server)
        try await broker.start()
        let daemon = try DaemonProcess(config: MQTTRig.config(broker: broker, mqtt: "user = intercom\npassword = \(Self.secret)\nca_file = \(ca)\n"),
                                       name: "mqtt-tls-gone")
        try await withCleanup({ await daemon.stop(); await broker.stop() }) {
            try await MQTTRig.waitConnected(daemon)
            try FileManager.default.removeItem(atPath: ca)
            await broker.stop()
            // Where the broker was, a listener that would see the password if it came in clear.
            let listener = try SilentListener(port: broker.port)
            try await daemon.process.waitForOutput(containing: "mqtt: lost the broker", in: .stderr)
            let line = "not connecting to 127.0.0.1:\(broker.port): [mqtt] ca_file \(ca): cannot read it"
            try await daemon.process.waitForOutput(containing: line, in: .stderr, timeout: .seconds(15))
            // The attempt that logged the line went no further: nothing reached the port.
            #expect(listener.pendingConnections() == 0, "\(daemon.log)")
            #expect(!daemon.log.contains(Self.secret))
        }
    }

    @Test("mqtts:// without ca_file: the first bytes on the wire are a TLS ClientHello, never the login")
    func systemStoreSpeaksTLSFirst() async throws {
        let listener = try SilentListener()
        let daemon = try DaemonProcess(config: Self.config(port: listener.port), name: "mqtt-tls-system")
        try await withCleanup({ await daemon.stop() }) {
            let bytes = try await listener.firstBytes()
            // 0x16: a TLS handshake record; a CONNECT packet would start with 0x10.
            #expect(bytes.first == 0x16, "\(bytes.prefix(16))")
            #expect(!String(decoding: bytes, as: UTF8.self).contains(Self.secret))
            try await daemon.process.waitForOutput(containing: "mqtt: TLS with 127.0.0.1:\(listener.port) failed", in: .stderr,
                                                   timeout: .seconds(15))
        }
    }
}
