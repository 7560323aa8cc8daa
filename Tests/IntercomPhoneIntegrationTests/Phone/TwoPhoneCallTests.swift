import Foundation
import Testing
import IntercomPhone
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase

/// Two real liblinphone cores calling each other over loopback.
@Suite(.serialized, .removesTestFolders) struct TwoPhoneCallTests {
    @Test(arguments: [SIPTransport.udp, .tcp])
    func answerDTMFBothWaysAndHangUp(transport: SIPTransport) async throws {
        let (panel, panelEvents) = try await PhoneTestSupport.phone("panel")
        let (client, clientEvents) = try await PhoneTestSupport.phone("client")
        try await withCleanup({ await panel.stop(); await client.stop() }) {
            let outgoing = try await panel.call(PhoneTestSupport.uri(of: client, user: "client", transport: transport), video: false)
            let incoming = try await clientEvents.wait("incoming call") { $0.incomingCall }
            #expect(incoming.from.hasPrefix("sip:panel@"))
            #expect(incoming.remoteHost == "127.0.0.1")

            try await client.answer(incoming.id)
            _ = try await clientEvents.wait("client established") { $0.established(incoming.id) }
            _ = try await panelEvents.wait("panel established") { $0.established(outgoing) }

            try await client.sendDTMF(incoming.id, digits: "1#", timing: DTMFTiming(durationMs: 100, gapMs: 100, repeat: 1))
            _ = try await panelEvents.wait("DTMF 1 at panel") { $0.dtmf(outgoing) == "1" ? true : nil }
            _ = try await panelEvents.wait("DTMF # at panel") { $0.dtmf(outgoing) == "#" ? true : nil }
            try await panel.sendDTMF(outgoing, digits: "5", timing: DTMFTiming(durationMs: 100, gapMs: 100, repeat: 1))
            _ = try await clientEvents.wait("DTMF 5 at client") { $0.dtmf(incoming.id) == "5" ? true : nil }

            try await client.hangup(incoming.id)
            #expect(try await clientEvents.wait("client ended") { $0.ended(incoming.id) } == .hangup)
            #expect(try await panelEvents.wait("panel ended") { $0.ended(outgoing) } == .remoteHangup)
        }
    }

    /// Found by `make sanitize` (AddressSanitizer: SEGV in mediastreamer's audio_stream_send_dtmf):
    /// a hang-up while repeats were still queued let the next digit's timer hand the ended call,
    /// whose audio stream is gone, to linphone_call_send_dtmf. A digit every 20 ms keeps the
    /// timers firing through the moment between End and Released.
    @Test func hangupInTheMiddleOfADTMFSequence() async throws {
        let (panel, panelEvents) = try await PhoneTestSupport.phone("panel")
        let (client, clientEvents) = try await PhoneTestSupport.phone("client")
        let outgoing = try await panel.call(PhoneTestSupport.uri(of: client, user: "client"), video: false)
        let incoming = try await clientEvents.wait("incoming") { $0.incomingCall }
        try await client.answer(incoming.id)
        _ = try await clientEvents.wait("client established") { $0.established(incoming.id) }
        _ = try await panelEvents.wait("panel established") { $0.established(outgoing) }

        try await client.sendDTMF(incoming.id, digits: "1", timing: DTMFTiming(durationMs: 20, gapMs: 0, repeat: 10))
        _ = try await panelEvents.wait("first 1 at panel") { $0.dtmf(outgoing) == "1" ? true : nil }
        try await client.hangup(incoming.id)
        #expect(try await clientEvents.wait("client ended") { $0.ended(incoming.id) } == .hangup)
        // The rest of the sequence would have gone out here; the process must still be alive after it.
        try await Task.sleep(for: .milliseconds(400))
        #expect(!clientEvents.all.contains { if case .dtmfSent(incoming.id, _) = $0 { true } else { false } })
        // Awaited rather than deferred: as the last test of a run, cores still iterating while the
        // process exits (liblinphone's static destructors) abort in glibc's malloc now and then.
        await panel.stop()
        await client.stop()
    }

    @Test func remoteHangupIsToldApart() async throws {
        let (panel, panelEvents) = try await PhoneTestSupport.phone("panel")
        let (client, clientEvents) = try await PhoneTestSupport.phone("client")
        try await withCleanup({ await panel.stop(); await client.stop() }) {
            let outgoing = try await panel.call(PhoneTestSupport.uri(of: client, user: "client"), video: false)
            let incoming = try await clientEvents.wait("incoming") { $0.incomingCall }
            try await client.answer(incoming.id)
            _ = try await panelEvents.wait("panel established") { $0.established(outgoing) }
            try await panel.hangup(outgoing)
            #expect(try await clientEvents.wait("client ended") { $0.ended(incoming.id) } == .remoteHangup)
        }
    }

    @Test func cancelBeforeAnswerIsMissed() async throws {
        let (panel, _) = try await PhoneTestSupport.phone("panel")
        let (client, clientEvents) = try await PhoneTestSupport.phone("client")
        try await withCleanup({ await panel.stop(); await client.stop() }) {
            let outgoing = try await panel.call(PhoneTestSupport.uri(of: client, user: "client"), video: false)
            let incoming = try await clientEvents.wait("incoming") { $0.incomingCall }
            try await panel.hangup(outgoing)
            #expect(try await clientEvents.wait("client ended") { $0.ended(incoming.id) } == .missed)
        }
    }

    @Test func declineIsDeclinedOnBothSides() async throws {
        let (panel, panelEvents) = try await PhoneTestSupport.phone("panel")
        let (client, clientEvents) = try await PhoneTestSupport.phone("client")
        try await withCleanup({ await panel.stop(); await client.stop() }) {
            let outgoing = try await panel.call(PhoneTestSupport.uri(of: client, user: "client"), video: false)
            let incoming = try await clientEvents.wait("incoming") { $0.incomingCall }
            try await client.decline(incoming.id)
            #expect(try await clientEvents.wait("client ended") { $0.ended(incoming.id) } == .declined)
            #expect(try await panelEvents.wait("panel ended") { $0.ended(outgoing) } == .declined)
        }
    }

    @Test func severalCallsAtOnceHaveStableIDs() async throws {
        let (entrance, _) = try await PhoneTestSupport.phone("entrance")
        let (gate, _) = try await PhoneTestSupport.phone("gate")
        let (client, clientEvents) = try await PhoneTestSupport.phone("client")
        try await withCleanup({ await entrance.stop(); await gate.stop(); await client.stop() }) {
            _ = try await entrance.call(PhoneTestSupport.uri(of: client, user: "client"), video: false)
            _ = try await gate.call(PhoneTestSupport.uri(of: client, user: "client"), video: false)
            let first = try await clientEvents.wait("entrance rings") { e in
                e.incomingCall.flatMap { $0.from.hasPrefix("sip:entrance@") ? $0 : nil } }
            let second = try await clientEvents.wait("gate rings") { e in
                e.incomingCall.flatMap { $0.from.hasPrefix("sip:gate@") ? $0 : nil } }
            #expect(first.id != second.id)
            try await client.answer(second.id)
            _ = try await clientEvents.wait("gate established") { $0.established(second.id) }
            try await client.decline(first.id)
            #expect(try await clientEvents.wait("entrance ended") { $0.ended(first.id) } == .declined)
            try await client.hangup(second.id)
            #expect(try await clientEvents.wait("gate ended") { $0.ended(second.id) } == .hangup)
        }
    }

    @Test func portInUseIsReported() async throws {
        let (first, _) = try await PhoneTestSupport.phone("first")
        try await withCleanup({ await first.stop() }) {
            let taken = try #require(first.listening.first { $0.transport == .udp })
            let settings = PhoneSettings(listen: [taken], dataDirectory: PhoneTestSupport.tempDirectory("second"))
            await #expect(throws: PhoneError.portInUse(taken)) { _ = try await Phone.start(settings, logger: .silent) }
        }
    }

    @Test func badListenAddressIsReported() async throws {
        let settings = PhoneSettings(listen: [ListenAddress(transport: .udp, host: "not-an-ip", port: 5060)],
                                     dataDirectory: PhoneTestSupport.tempDirectory("bad"))
        await #expect(throws: PhoneError.self) { _ = try await Phone.start(settings, logger: .silent) }
    }
}
