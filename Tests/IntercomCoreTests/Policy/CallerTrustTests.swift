import Foundation
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import IntercomPhone
import IntercomPhoneTestSupport
import Testing

/// Who a call is from, as the engine decides it: by the address its packets came from first,
/// then its headers. An impostor (a panel's headers from elsewhere) is refused whatever
/// `unknown_callers` says; a stranger is refused or rings as a caller without a panel. The phone
/// thread applies the same gate before liblinphone (IntercomPhoneTests, the end-to-end
/// CallerIdentityTests); here the engine's half, on a fake phone.
@Suite(.removesTestFolders) struct CallerTrustTests {
    static let entrance = CallPolicyTests.entrance()

    @Test func aPanelsCallFromItsOwnAddressIsNamed() async throws {
        try await EngineRig.run(panels: [Self.entrance]) { rig throws in
            let id = rig.phone.ring(from: "<sip:100001@10.0.0.5>;tag=1", source: "10.0.0.5")
            #expect(try await rig.incoming(id).panel == "entrance")
        }
    }

    @Test(arguments: [UnknownCallerPolicy.reject, .accept], ["10.0.0.9", nil])
    func aPanelsHeadersFromElsewhereAreRefusedSilently(unknown: UnknownCallerPolicy, source: String?) async throws {
        try await EngineRig.run(panels: [Self.entrance], sip: SIPSettings(unknownCallers: unknown)) { rig throws in
            let impostor = rig.phone.ring(from: "sip:100001@10.0.0.5", source: source)
            try await rig.phone.requests.wait(for: "the impostor refused") { $0 == .decline(impostor, .forbidden) }
            // The next call is handled after the first: by then the impostor left no trace.
            let real = rig.phone.ring(from: "sip:100001@10.0.0.5", source: "10.0.0.5")
            _ = try await rig.incoming(real)
            #expect(!rig.events.all.contains { e in if case .callIncoming(let c) = e.kind { c.id == impostor } else { false } })
            #expect(!rig.phone.requests.all.contains(.replace(impostor)), "an impostor's call counted as the panel's")
        }
    }

    @Test func aStrangerIsRefusedWithoutEventsUnderReject() async throws {
        try await EngineRig.run(panels: [Self.entrance]) { rig throws in
            let stranger = rig.phone.ring(from: "sip:scanner@203.0.113.9", source: "203.0.113.9")
            try await rig.phone.requests.wait(for: "the stranger refused") { $0 == .decline(stranger, .forbidden) }
            let real = rig.phone.ring(from: "sip:100001@10.0.0.5", source: "10.0.0.5")
            _ = try await rig.incoming(real)
            #expect(rig.events.all.map(\.name).prefix(2) == ["started", "call_incoming"])
        }
    }

    @Test func aStrangerRingsWithoutAPanelUnderAccept() async throws {
        try await EngineRig.run(sip: SIPSettings(unknownCallers: .accept)) { rig throws in
            let id = rig.phone.ring(from: "sip:caller@203.0.113.9", source: "203.0.113.9")
            let incoming = try await rig.incoming(id)
            #expect(incoming.panel == nil)
            #expect(IntercomEvent(.callIncoming(incoming)).json.encoded.contains("\"panel\":null"))
            try await rig.intercom.execute(.answer(nil))
            #expect(try await rig.answered(id) == .user)
            try await rig.intercom.execute(.hangup(nil))
            #expect(try await rig.ended(id) == .hangup)
        }
    }

    /// Through the `[sip] account`'s registrar: a panel's `match` from the registrar's address is
    /// the panel; from anywhere else it is an impostor.
    @Test func aPanelsCallThroughTheRegistrarIsNamed() async throws {
        let sip = SIPSettings(account: SIPAccount(identity: "sip:4000000001@192.0.2.1"))
        try await EngineRig.run(panels: [Self.entrance], sip: sip) { rig throws in
            let routed = rig.phone.ring(from: "sip:100001@192.0.2.1", source: "192.0.2.1")
            #expect(try await rig.incoming(routed).panel == "entrance")
            let forged = rig.phone.ring(from: "sip:100001@192.0.2.1", source: "192.0.2.77")
            try await rig.phone.requests.wait(for: "the forged call refused") { $0 == .decline(forged, .forbidden) }
        }
    }

    /// Switched off at run time with SIGHUP's reload, the gate follows the new config at once.
    @Test func aReloadedConfigChangesWhoIsTrusted() async throws {
        try await EngineRig.run(panels: [Self.entrance]) { rig throws in
            var moved = await rig.intercom.config
            moved.panels[0].source = ["10.0.0.8"]
            _ = try await rig.intercom.execute(.reload(moved)).notApplied
            let old = rig.phone.ring(from: "sip:100001@10.0.0.5", source: "10.0.0.5")
            try await rig.phone.requests.wait(for: "the old address refused") { $0 == .decline(old, .forbidden) }
            let new = rig.phone.ring(from: "sip:100001@10.0.0.5", source: "10.0.0.8")
            #expect(try await rig.incoming(new).panel == "entrance")
        }
    }
}
