import Foundation
import IntercomBase
import IntercomCLI

/// The demo's two `intercom-sim` children: a simulated Beward panel that rings the client, and a
/// simulated SmartYard operator whose door drives that panel over HTTP Basic (the panel takes
/// Digest and Basic: `--auth both`). Started in that order, stopped in the reverse.
struct DemoSimulators: Sendable {
    var panel: SimulatorChild
    var panelURL: String
    /// The panel camera's main stream (`rtsp://127.0.0.1:PORT/av0_0`; the sub stream is derived from it).
    var panelRTSP: String
    var operatorChild: SimulatorChild
    var operatorURL: String
    var testPhone: String
    var testCode: String

    /// How long a child may take to print its ready lines (a liblinphone core starts in the panel).
    static let readyTimeout: Duration = .seconds(20)

    /// Starts both; `clientPort` is where the panel rings (sip:intercom@127.0.0.1:PORT), on SIGUSR1
    /// and then `ringEvery` seconds after each call. Nothing is left running when this throws.
    static func start(program: String, directory: String, clientPort: UInt16, ringEvery: Double,
                      environment: [String: String]) async throws(DemoError) -> DemoSimulators {
        let panel = try SimulatorChild.start("the simulated panel", program: program, arguments: [
            "simulate-panel", "--events", "json", "--auth", "both",
            "--call", "sip:intercom@127.0.0.1:\(clientPort)", "--ring-on-signal",
            "--ring-every", String(max(ringEvery, 0.01)),
        ], environment: environment, logs: "\(directory)/panel")
        let panelURL: String
        let panelRTSP: String
        do {
            panelURL = try await panel.line(within: readyTimeout) { line in
                guard let json = JSONValue.parse(line), json["event"]?.stringValue == "http_listening" else { return nil }
                return json["url"]?.stringValue
            }
            panelRTSP = try await panel.line(within: readyTimeout) { line in
                guard let json = JSONValue.parse(line), json["event"]?.stringValue == "rtsp_listening" else { return nil }
                return json["url"]?.stringValue
            }
            // Its SIP phone is up too before the operator starts.
            _ = try await panel.line(within: readyTimeout) { $0.contains("\"event\":\"sip_listening\"") ? true : nil }
        } catch {
            await panel.stop()
            throw error
        }
        let operatorChild: SimulatorChild
        do {
            operatorChild = try SimulatorChild.start("the simulated operator", program: program, arguments: [
                "simulate-operator", "--panel", panelURL, "--panel-user", "admin", "--panel-password", "admin",
            ], environment: environment, logs: "\(directory)/operator")
        } catch {
            await panel.stop()
            throw error
        }
        do {
            let operatorURL = try await operatorChild.line(within: readyTimeout) { line in
                line.hasPrefix("operator listening on ") ? String(line.dropFirst("operator listening on ".count)) : nil
            }
            // "test phone 79123456781, code 1001"
            let (phone, code) = try await operatorChild.line(within: readyTimeout) { line -> (String, String)? in
                guard line.hasPrefix("test phone ") else { return nil }
                let words = line.dropFirst("test phone ".count).split(separator: " ")
                guard words.count == 3, words[1] == "code" else { return nil }
                return (String(words[0].dropLast()), String(words[2]))
            }
            return DemoSimulators(panel: panel, panelURL: panelURL, panelRTSP: panelRTSP, operatorChild: operatorChild,
                                  operatorURL: operatorURL, testPhone: phone, testCode: code)
        } catch {
            await operatorChild.stop()
            await panel.stop()
            throw error
        }
    }

    /// Rings the client now (the panel was started with --ring-on-signal).
    func ring() {
        panel.send(SIGUSR1)
    }

    /// Both stopped and reaped: SIGTERM, then SIGKILL after a bound.
    func stop() async {
        await operatorChild.stop()
        await panel.stop()
    }

    /// The demo's config: the panel, the operator (whose door appears beside the panel), and a
    /// socket and journal inside the demo's private folder.
    func config(clientPort: UInt16, directory: String) -> String {
        """
        # Written by `intercom demo` for this run; its private folder is removed when the demo ends.
        [sip]
        listen = udp:127.0.0.1:\(clientPort)

        [panel porch]
        url = \(panelURL)
        rtsp = \(panelRTSP)
        user = admin
        password = admin
        match = sip:100001@
        open = both

        [operator demo]
        api = \(operatorURL)
        phone = \(testPhone)

        [daemon]
        socket = \(directory)/control.sock

        # The demo's calls are not the resident's: they stay out of the real journal.
        [journal]
        path = \(directory)/journal

        """
    }
}
