import Foundation
import IntercomCore
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase
import IntercomPhone

/// The caller gate the engine builds, as the phone thread applies it to a real caller over
/// loopback: a stranger is refused before liblinphone and the engine never hears of it. The
/// policies themselves run on fakes (Policy/CallPolicyTests, Policy/CallerTrustTests).
@Suite(.removesTestFolders) struct IntercomPolicyTests {
    @Test func unknownCallerIsRejectedWithoutEvents() async throws {
        let (intercom, events) = try await PhoneTestSupport.intercom(panels: [
            PanelConfig(name: "entrance", url: "http://127.0.0.1:1", match: [.uriPrefix("sip:100001@")])])
        let (scanner, scannerEvents) = try await PhoneTestSupport.phone("scanner")
        try await withCleanup({ await scanner.stop(); await intercom.stop() }) {
            let port = await intercom.listening.first?.port ?? 0
            let outgoing = try await scanner.call("sip:door@127.0.0.1:\(port)", video: false)
            #expect(try await scannerEvents.wait("scanner refused") { $0.ended(outgoing) } == .declined)
            #expect(events.all.map(\.name) == ["started"])
        }
    }
}
