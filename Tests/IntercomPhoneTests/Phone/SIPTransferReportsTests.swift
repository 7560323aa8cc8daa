import Foundation
@testable import IntercomPhone
import IntercomPhoneTestSupport
import Testing

/// The status line of a failed transfer, read from the NOTIFY's sipfrag body (liblinphone 5.1
/// reports only an Error state). The real NOTIFY from a panel: DaemonConciergeDeskTests.
@Suite(.removesTestFolders) struct SIPTransferReportsTests {
    static func notify(event: String = "refer", callID: String = "abc@10.0.0.5", body: String) -> [UInt8] {
        Array("""
            \r\nNOTIFY sip:desk@10.0.0.2:5060 SIP/2.0\r
            Via: SIP/2.0/UDP 10.0.0.5:5060;branch=z9hG4bK1\r
            i: \(callID)\r
            CSeq: 2 NOTIFY\r
            Event: \(event)\r
            Subscription-State: terminated;reason=noresource\r
            Content-Type: message/sipfrag;version=2.0\r
            Content-Length: \(body.utf8.count)\r
            \r
            \(body)
            """.utf8)
    }

    static func outcome(_ bytes: [UInt8]) -> (callID: String, status: String)? {
        bytes.withUnsafeBytes { SIPTransferReports.referOutcome(in: $0) }
    }

    @Test func aFinalSipfragIsKeptByCallID() throws {
        let found = try #require(Self.outcome(Self.notify(body: "SIP/2.0 486 Busy Here\r\n")))
        #expect(found.callID == "abc@10.0.0.5" && found.status == "486 Busy Here")
        let reports = SIPTransferReports()
        Self.notify(body: "SIP/2.0 404 Not Found\r\n").withUnsafeBytes { reports.observe($0) }
        #expect(reports.take(callID: "abc@10.0.0.5") == "404 Not Found")
        #expect(reports.take(callID: "abc@10.0.0.5") == nil, "taken once")
    }

    @Test func provisionalOtherEventsAndOtherRequestsAreIgnored() {
        #expect(Self.outcome(Self.notify(body: "SIP/2.0 100 Trying\r\n")) == nil)
        #expect(Self.outcome(Self.notify(event: "presence", body: "SIP/2.0 486 Busy Here\r\n")) == nil)
        #expect(Self.outcome(Array("INVITE sip:a@b SIP/2.0\r\nCall-ID: x\r\nEvent: refer\r\n\r\nSIP/2.0 486 Busy\r\n".utf8)) == nil)
        #expect(Self.outcome(Self.notify(body: "SIP/2.0 abc nonsense\r\n")) == nil)
    }

    @Test func theReasonIsNamedForTheDesk() {
        #expect(SIPTransferReports.describe("486 Busy Here") == "busy (486 Busy Here)")
        #expect(SIPTransferReports.describe("404 Not Found") == "not found (404 Not Found)")
        #expect(SIPTransferReports.describe("408 Request Timeout") == "timeout: nobody answered (408 Request Timeout)")
        #expect(SIPTransferReports.describe("603 Decline") == "refused (603 Decline)")
        #expect(SIPTransferReports.describe("503 Service Unavailable") == "failed (503 Service Unavailable)")
    }

    @Test func theStoreStaysSmall() {
        let reports = SIPTransferReports()
        for n in 0..<(SIPTransferReports.capacity + 10) {
            Self.notify(callID: "call-\(n)", body: "SIP/2.0 486 Busy Here\r\n").withUnsafeBytes { reports.observe($0) }
        }
        #expect(reports.take(callID: "call-0") == nil)
        #expect(reports.take(callID: "call-\(SIPTransferReports.capacity + 9)") == "486 Busy Here")
    }
}
