import Foundation
@testable import IntercomSimulator
import Testing
import IntercomPanel
import IntercomPhone
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase

/// The whole simulated panel over real loopback: it rings an in-process phone, sends its scene
/// as video and opens doors on DTMF and on HTTP.
@Suite(.serialized, .removesTestFolders) struct SimulatedPanelTests {
    /// Runs `body` with a started panel and a client phone, and stops both whatever happens.
    private func withPanel(
        _ sip: SimulatedPanelSIPOptions = SimulatedPanelSIPOptions(),
        _ body: (SimulatedPanel, EventRecorder<SimulatedPanelEvent>, Phone, EventRecorder<PhoneEvent>) async throws -> Void
    ) async throws {
        try await withStaticPicture { try await runPanel(sip, body) }
    }

    private func runPanel(
        _ sip: SimulatedPanelSIPOptions,
        _ body: (SimulatedPanel, EventRecorder<SimulatedPanelEvent>, Phone, EventRecorder<PhoneEvent>) async throws -> Void
    ) async throws {
        var sip = sip
        sip.dataDirectory = PhoneTestSupport.tempDirectory("simpanel")
        let (client, clientEvents) = try await PhoneTestSupport.phone("client", video: .receive)
        let panel: SimulatedPanel
        do {
            panel = try await SimulatedPanel.start(sip: sip)
        } catch {
            await client.stop()
            throw error
        }
        let panelEvents = EventRecorder(panel.events)
        do {
            try await body(panel, panelEvents, client, clientEvents)
        } catch {
            await panel.stop()
            await client.stop()
            throw error
        }
        await panel.stop()
        await client.stop()
    }

    @Test func ringsSendsTheSceneAndOpensDoorsByDTMFAndHTTP() async throws {
        try await withPanel { panel, panelEvents, client, clientEvents in
            let doors = PanelEventRecorder(panel.http.doorEvents())
            defer { doors.cancel() }

            let outgoing = try await panel.ring(PhoneTestSupport.uri(of: client, user: "client"))
            let incoming = try await clientEvents.wait("incoming call") { $0.incomingCall }
            #expect(incoming.from.hasPrefix("sip:100001@127.0.0.1"), "from \(incoming.from)")
            #expect(incoming.offersVideo)
            _ = try await panelEvents.wait("calling") { if case .calling(outgoing, _) = $0 { true } else { nil } }
            _ = try await panelEvents.wait("ringing") { if case .ringing(outgoing) = $0 { true } else { nil } }

            try await client.answer(incoming.id, video: true)
            let media = try await clientEvents.wait("client established") { $0.established(incoming.id) }
            #expect(media.audioCodec?.hasPrefix("PCMA") == true, "audio \(String(describing: media.audioCodec))")
            #expect(media.videoCodec?.hasPrefix("H264") == true, "video \(String(describing: media.videoCodec))")
            _ = try await panelEvents.wait("panel answered") { if case .answered(outgoing, _) = $0 { true } else { nil } }

            // The panel's scene arrives as decoded video, and it is a picture, not a flat colour.
            await TestPatience.eventually(within: .seconds(10), every: .milliseconds(50)) { client.video.latest != nil }
            let frame = try #require(client.video.latest, "no video frame arrived in 10 s")
            let luma = frame.i420.prefix(frame.width * frame.height)
            let darkest = Int(luma.min() ?? 0), brightest = Int(luma.max() ?? 0)
            #expect(brightest - darkest > 80, "luma range \(darkest)…\(brightest): a uniform picture")

            // SmartYard-style "1" three times: one opening of the main door.
            let timing = DTMFTiming(durationMs: 100, gapMs: 100, repeat: 3)
            try await client.sendDTMF(incoming.id, digits: "1", timing: timing)
            _ = try await panelEvents.wait("main door by dtmf") { e in
                if case .doorOpened(let d) = e, d.door == .main, d.method == "dtmf" { true } else { nil }
            }
            _ = try await clientEvents.wait("digits 1 sent") { if case .dtmfSent(incoming.id, "1") = $0 { true } else { nil } }
            await TestPatience.eventually(within: .seconds(5)) {
                panelEvents.all.filter { if case .dtmf(outgoing, "1") = $0 { true } else { false } }.count >= 2
            }
            #expect(panelEvents.all.filter { if case .dtmf(outgoing, "1") = $0 { true } else { false } }.count >= 2,
                    "the repeats should reach the panel: \(panelEvents.all)")
            #expect(doors.all == [SimulatedDoorEvent(door: .main, method: "dtmf")])

            try await client.sendDTMF(incoming.id, digits: "2", timing: timing)
            _ = try await panelEvents.wait("alt door by dtmf") { e in
                if case .doorOpened(let d) = e, d.door == .alt, d.method == "dtmf" { true } else { nil }
            }

            // The HTTP CGI opens a door too, reported through the same channel.
            let http = try BewardPanel(name: "sim", baseURL: panel.http.baseURL, user: "admin", password: "admin")
            try await http.open(door: .main)
            _ = try await panelEvents.wait("main door by http") { e in
                if case .doorOpened(let d) = e, d.door == .main, d.method == "http" { true } else { nil }
            }
            #expect(await doors.wait { $0.count == 3 })
            #expect(doors.all == [SimulatedDoorEvent(door: .main, method: "dtmf"),
                                  SimulatedDoorEvent(door: .alt, method: "dtmf"),
                                  SimulatedDoorEvent(door: .main, method: "http")])

            try await client.hangup(incoming.id)
            let reason = try await panelEvents.wait("panel ended") { e in
                if case .ended(outgoing, let reason, _) = e { reason } else { nil }
            }
            #expect(reason == .remoteHangup)
            #expect(panel.activeCalls.isEmpty)
        }
    }

    @Test func unansweredCallIsCancelledAfterTheRingTime() async throws {
        try await withPanel(SimulatedPanelSIPOptions(ringTimeout: .seconds(1))) { panel, panelEvents, client, clientEvents in
            let outgoing = try await panel.ring(PhoneTestSupport.uri(of: client, user: "client"), video: false)
            let incoming = try await clientEvents.wait("incoming call") { $0.incomingCall }
            let reason = try await panelEvents.wait("panel ended") { e in
                if case .ended(outgoing, let reason, _) = e { reason } else { nil }
            }
            #expect(reason == .missed)
            #expect(try await clientEvents.wait("client ended") { $0.ended(incoming.id) } == .missed)
        }
    }
}

/// The real `intercom simulate-panel` binary: its lines, its signals, its exit codes.
@Suite(.serialized, .removesTestFolders) struct SimulatePanelCommandTests {
    static func binary() throws -> String { try IntercomBinary.path() }

    @Test func printsListeningLinesAndExitsZeroOnSIGTERM() async throws {
        let dir = try TestDirectory(prefix: "simulate-panel")
        let process = try await SimulatorProcess.panel(["--events", "json"], in: dir)
        let out = process.stdout
        let lines = out.split(separator: "\n").compactMap { JSONValue.parse(String($0)) }
        let http = try #require(lines.first { $0["event"]?.stringValue == "http_listening" }, "stdout:\n\(out)")
        #expect(http["url"]?.stringValue?.hasPrefix("http://127.0.0.1:") == true)
        #expect(http["user"]?.stringValue == "admin")
        #expect(http["auth"]?.stringValue == "digest")
        let sip = try #require(lines.first { $0["event"]?.stringValue == "sip_listening" })
        #expect(sip["listen"]?.stringValue?.hasPrefix("udp:127.0.0.1:") == true)
        #expect(sip["from"]?.stringValue == "sip:100001@127.0.0.1")

        await process.stop(grace: .seconds(10))
        #expect(process.exitStatus == 0, "not 0 (nor a signal's number): \(process.log)")
        #expect(process.stdout.contains("\"event\":\"stopped\""))
    }

    /// `intercom demo` starts the panel with --ring-on-signal and rings it once its screen is up.
    @Test func ringOnSignalWaitsForSIGUSR1() async throws {
        let dir = try TestDirectory(prefix: "simulate-panel")
        let port = try FreePort.udpAndTCP()
        let process = try await SimulatorProcess.panel(["--events", "json", "--ring-on-signal", "--call", "sip:intercom@127.0.0.1:\(port)"],
                                                       in: dir)
        try await withCleanup({ await process.stop(grace: .seconds(10)) }) {
            try await Task.sleep(for: .milliseconds(700))
            #expect(!process.stdout.contains("\"event\":\"calling\""), "rang before SIGUSR1:\n\(process.stdout)")
            process.signal(SIGUSR1)
            let out = try await process.waitForOutput(containing: "\"event\":\"calling\"", in: .stdout, timeout: .seconds(10))
            #expect(out.contains("sip:intercom@127.0.0.1:\(port)"), "\(out)")
        }
        #expect(process.exitStatus == 0, "\(process.log)")
    }

    @Test func ringOnSignalNeedsACall() async throws {
        let dir = try TestDirectory(prefix: "simulate-panel")
        let result = try await Subprocess.run(try Self.binary(), ["simulate-panel", "--ring-on-signal"], logDirectory: dir.url)
        #expect(result.status == 64 && result.stderr.contains("--ring-on-signal needs --call"), "\(result.stderr)")
    }

    @Test func badOptionIsAUsageError() async throws {
        let dir = try TestDirectory(prefix: "simulate-panel")
        let result = try await Subprocess.run(try Self.binary(), ["simulate-panel", "--http-port", "http"],
                                              logDirectory: dir.url)
        #expect(result.status == 64)
        #expect(result.stderr.split(separator: "\n").count == 1, "stderr: \(result.stderr)")
        #expect(result.stderr.contains("--http-port"))
    }

    @Test func takenPortIsUnavailable() async throws {
        let taken = SimulatedPanelHTTPServer()
        let port = try taken.start()
        defer { taken.stop() }
        let dir = try TestDirectory(prefix: "simulate-panel")
        let result = try await Subprocess.run(try Self.binary(), ["simulate-panel", "--http-port", "\(port)"],
                                              logDirectory: dir.url)
        #expect(result.status == 69, "stderr: \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "stderr: \(result.stderr)")
    }
}
