import Foundation
import IntercomBase
@testable import IntercomCore
import IntercomCoreFakes
import IntercomPanel
import Testing

/// The panels' syslog part without a socket: a datagram is a panel's by its source address (the
/// directory SIP uses), a stranger's is counted and ignored, and a DTMF opening of ours the panel
/// confirms is not reported twice.
@Suite struct PanelSyslogTests {
    static let directory = CallerDirectory(
        panels: [PanelConfig(name: "entrance", url: "http://127.0.0.1:9"), PanelConfig(name: "yard", url: "http://127.0.0.3:9")],
        registrarHosts: [], rejectStrangers: false, resolve: { _ in [] })

    static func context(_ clock: ManualClock, heard: Set<String> = ["entrance"], inCall: Bool = false) -> PanelSyslog.Context {
        PanelSyslog.Context(panelsAt: { directory.panels(at: $0) }, heard: heard, inCall: { _ in inCall }, now: clock.date)
    }

    static func datagram(_ message: String) -> [UInt8] { Array("<14>Jul 28 15:51:52 dks UART[895]: \(message)".utf8) }

    @Test func aHeardPanelsLinesBecomeEvents() {
        let clock = ManualClock()
        var part = PanelSyslog()
        let key = part.receive(Self.datagram("Opening door by RFID 00000033753EFB, apartment 12"), from: "127.0.0.1",
                               Self.context(clock), logger: .silent)
        #expect(key == [.panelOpened(PanelOpening(panel: "entrance", door: "main", by: .key, key: "00000033753EFB", flat: "12"))])
        let calling = part.receive(Self.datagram("Calling sip:12@127.0.0.1:5060 through account 0(0)..."), from: "127.0.0.1",
                                   Self.context(clock), logger: .silent)
        #expect(calling == [.panelCalling(panel: "entrance", flat: "12", via: "sip")])
        let handset = part.receive(Self.datagram("CMS handset talk started for apartment 12"), from: "::ffff:127.0.0.1",
                                   Self.context(clock), logger: .silent)
        #expect(handset == [.callAnsweredElsewhere(panel: "entrance", flat: "12")])
        #expect(part.strangers == 0)
    }

    /// Another address's datagrams, and those of a panel whose syslog is not heard, are strangers'.
    @Test func strangersAreIgnoredAndCounted() {
        let clock = ManualClock()
        var part = PanelSyslog()
        let line = Self.datagram("Main door button pressed")
        #expect(part.receive(line, from: "127.0.0.2", Self.context(clock), logger: .silent).isEmpty)
        #expect(part.receive(line, from: "127.0.0.3", Self.context(clock), logger: .silent).isEmpty)
        #expect(part.receive(line, from: "not an address", Self.context(clock), logger: .silent).isEmpty)
        #expect(part.strangers == 3)
        #expect(part.receive(line, from: "127.0.0.3", Self.context(clock, heard: ["entrance", "yard"]), logger: .silent)
            == [.panelOpened(PanelOpening(panel: "yard", door: "main", by: .button))])
        #expect(part.strangers == 3)
    }

    @Test func aDTMFOpeningOfOursIsConfirmedNotRepeated() {
        let clock = ManualClock()
        var part = PanelSyslog()
        let line = Self.datagram("Opening door by DTMF command for apartment 12")
        // In a call with the panel: the digits can only be ours.
        #expect(part.receive(line, from: "127.0.0.1", Self.context(clock, inCall: true), logger: .silent).isEmpty)
        // Just after our opening, the call over.
        part.noteOurDTMF(panel: "entrance", at: clock.date)
        clock.advance(by: .seconds(PanelSyslog.dtmfConfirmationWindow))
        #expect(part.receive(line, from: "127.0.0.1", Self.context(clock), logger: .silent).isEmpty)
        // Long after: someone else's digits opened it.
        clock.advance(by: .seconds(1))
        #expect(part.receive(line, from: "127.0.0.1", Self.context(clock), logger: .silent)
            == [.panelOpened(PanelOpening(panel: "entrance", door: "main", by: .dtmf, flat: "12"))])
    }

    @Test func theEventsJSONSaysWhoOpened() {
        let event = IntercomEvent(.panelOpened(PanelOpening(panel: "entrance", door: "alt", by: .key, key: "0A1B2C", flat: "12")),
                                  time: Date(timeIntervalSince1970: 0))
        #expect(event.name == "door_opened")
        #expect(event.json.encoded.contains(#""method":"panel","by":"key","ok":true,"key":"0A1B2C","flat":"12""#))
        #expect(IntercomEvent(json: event.json) == event)
        let calling = IntercomEvent(.panelCalling(panel: "entrance", flat: "12", via: "cms"), time: Date(timeIntervalSince1970: 0))
        #expect(IntercomEvent(json: calling.json) == calling)
    }
}

/// The engine with the part: a panel's call that ends unanswered after the flat's handset took it
/// (the panel's syslog) is answered elsewhere, not missed; without that line it is missed.
@Suite struct PanelSyslogCallTests {
    static func handsetLine() -> SyslogSocket.Datagram {
        SyslogSocket.Datagram(source: CallPolicyTests.panelAddress, bytes: PanelSyslogTests.datagram("CMS handset talk started for apartment 12"))
    }

    @Test(arguments: [true, false])
    func aCallTheHandsetTookIsNotMissed(handset: Bool) async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance { $0.syslog = true }]) { rig throws in
            let id = rig.phone.ring(from: CallPolicyTests.panelURI, source: CallPolicyTests.panelAddress)
            _ = try await rig.incoming(id)
            if handset {
                await PanelSyslogFlow().heard(Self.handsetLine(), on: rig.intercom)
                _ = try await rig.event("call_answered_elsewhere") { if case .callAnsweredElsewhere("entrance", "12") = $0 { true } else { nil } }
            }
            rig.phone.end(id, reason: .missed)
            #expect(try await rig.ended(id) == (handset ? .answeredElsewhere : .missed))
        }
    }
}
