@testable import IntercomPhone
import Testing

/// The read gate's decision for strangers' SIP, on bytes alone (no liblinphone): what passes, what
/// rings, what is answered 403 or 405, what is dropped unanswered, by datagram and by TCP stream.
@Suite struct SIPStrangerScreenTests {
    static func request(_ method: String, callID: String = "c-1", toTag: Bool = false, headers: [String] = [],
                        body: String = "", contentLength: String? = nil) -> String {
        ([
            "\(method) sip:resident@127.0.0.1:5060 SIP/2.0",
            "Via: SIP/2.0/UDP 127.0.0.2:5070;branch=z9hG4bK-\(callID)-\(method)",
            "From: <sip:x@127.0.0.2>;tag=f1",
            "To: <sip:resident@127.0.0.1>" + (toTag ? ";tag=forged" : ""),
            "Call-ID: \(callID)",
            "CSeq: 1 \(method)",
        ] + headers + ["Content-Length: \(contentLength ?? String(body.utf8.count))", "", body]).joined(separator: "\r\n")
    }

    static func judge(_ text: String, known: Set<String> = []) -> SIPStrangerScreen.Verdict {
        SIPStrangerScreen.judgeDatagram(Array(text.utf8)) { known.contains($0) }
    }

    @Test func methodsTheProductNeverTakesAre405AndTheRest403() {
        #expect(Self.judge(Self.request("MESSAGE", body: String(repeating: "x", count: 1024))) == .refuse(status: "405 Method Not Allowed"))
        #expect(Self.judge(Self.request("SUBSCRIBE", headers: ["Event: presence"])) == .refuse(status: "405 Method Not Allowed"))
        #expect(Self.judge(Self.request("PUBLISH")) == .refuse(status: "405 Method Not Allowed"))
        for method in ["OPTIONS", "NOTIFY", "REFER", "INFO", "BYE", "CANCEL", "UPDATE", "PRACK", "FROB"] {
            #expect(Self.judge(Self.request(method)) == .refuse(status: "403 Forbidden"), "\(method)")
        }
        #expect(Self.judge(Self.request("ACK")) == .drop("an ACK outside any dialog"))
    }

    @Test func aNewInviteGoesOnToTheCallerGateAndResponsesPass() {
        #expect(Self.judge(Self.request("INVITE")) == .newCall)
        #expect(Self.judge("\r\n\r\n" + Self.request("INVITE")) == .newCall, "leading CRLFs are skipped as belle-sip skips them")
        #expect(Self.judge("SIP/2.0 200 OK\r\nCall-ID: x\r\n\r\n") == .pass)
        // A response is one whole message too: nothing may ride behind it, and its status line is one.
        #expect(Self.judge("SIP/2.0 200 OK\r\nCall-ID: x\r\n\r\n" + Self.request("MESSAGE")) == .drop("more than one message"))
        #expect(Self.judge("SIP/2.0\r\n 200 OK\r\nCall-ID: x\r\n\r\n") == .drop("a start line that is no SIP response"))
    }

    @Test func onlyADialogThisSourceHasLetsItsRequestsThrough() {
        let known: Set<String> = ["dialog-1"]
        for method in ["ACK", "BYE", "CANCEL", "INFO", "UPDATE", "PRACK", "NOTIFY", "MESSAGE"] {
            #expect(Self.judge(Self.request(method, callID: "dialog-1", toTag: true), known: known) == .pass, "\(method)")
        }
        #expect(Self.judge(Self.request("INVITE", callID: "dialog-1", toTag: true), known: known) == .pass, "a re-INVITE")
        // A To-tag is the stranger's own word: it opens nothing.
        #expect(Self.judge(Self.request("MESSAGE", callID: "other", toTag: true), known: known) == .refuse(status: "405 Method Not Allowed"))
        #expect(Self.judge(Self.request("INVITE", callID: "other", toTag: true), known: known) == .refuse(status: "403 Forbidden"))
        #expect(Self.judge(Self.request("BYE", callID: "other", toTag: true), known: known) == .refuse(status: "403 Forbidden"))
    }

    @Test func aDatagramMustBeExactlyOneWholeMessage() {
        let message = Self.request("MESSAGE", callID: "dialog-1", body: "hello")
        let known: Set<String> = ["dialog-1"]
        #expect(Self.judge(message, known: known) == .pass)
        #expect(Self.judge(message + "\r\n", known: known) == .pass, "trailing line breaks are nothing")
        // Two messages in one datagram, the second smuggled after the first's body.
        #expect(Self.judge(message + Self.request("MESSAGE", callID: "x"), known: known) == .drop("more than one message"))
        // A body shorter than its Content-Length: belle-sip would wait and join the next datagram to it.
        #expect(Self.judge(Self.request("MESSAGE", callID: "dialog-1", body: "hi", contentLength: "40"), known: known)
                == .drop("a body shorter than its Content-Length"))
        #expect(Self.judge(Self.request("BYE", callID: "dialog-1", contentLength: "zero"), known: known)
                == .drop("an unreadable Content-Length"))
        // A head that has not ended, junk in front of a start line, a start line that is no request.
        #expect(Self.judge(String(Self.request("BYE").dropLast(4))) == .drop("no whole SIP message"))
        #expect(Self.judge("xx " + Self.request("MESSAGE")) == .drop("no whole SIP message"))
        #expect(Self.judge("JUNK\r\n" + Self.request("MESSAGE"), known: ["c-1"]) == .drop("a start line that is no SIP request"))
        // A request line inside a passing body (read as a request if belle-sip drops the head before).
        #expect(Self.judge(Self.request("INVITE", body: Self.request("MESSAGE"))) == .drop("more than one message"))
    }

    @Test func trustedSourcesAreRefusedOnlyWhatNobodyMaySend() throws {
        for method in ["MESSAGE", "SUBSCRIBE", "PUBLISH"] {
            let head = try #require(SIPRequestHead(Array(Self.request(method).utf8)))
            #expect(SIPStrangerScreen.mayBeNeverAccepted(Array(Self.request(method).utf8)))
            #expect(SIPStrangerScreen.judgeTrusted(head) == .refuse(status: "405 Method Not Allowed"), "\(method)")
        }
        for method in ["INVITE", "OPTIONS", "NOTIFY", "REFER", "BYE", "REGISTER"] {
            let head = try #require(SIPRequestHead(Array(Self.request(method).utf8)))
            #expect(SIPStrangerScreen.judgeTrusted(head) == .pass, "\(method)")
        }
    }

    @Test func the405AnswerCarriesAllow() throws {
        let head = try #require(SIPRequestHead(Array(Self.request("MESSAGE").utf8)))
        let reply = String(decoding: try #require(SIPStatelessReply.response(
            SIPStrangerScreen.methodNotAllowed, to: head, allow: SIPStrangerScreen.allowed)), as: UTF8.self)
        #expect(reply.hasPrefix("SIP/2.0 405 Method Not Allowed\r\n"))
        #expect(reply.contains("\r\nAllow: INVITE, ACK, CANCEL, BYE, UPDATE, PRACK, INFO, NOTIFY, REFER, OPTIONS\r\n"))
        #expect(!reply.contains("MESSAGE,") && reply.contains("CSeq: 1 MESSAGE"))
    }

    @Test func theDialogLedgerLearnsFromWhatWeSendAndIsBounded() {
        let ledger = SIPDialogLedger()
        let sent = Array(("INVITE sip:bob@10.0.0.7 SIP/2.0\r\nCall-ID: ours-1\r\n\r\n"
                          + "SIP/2.0 180 Ringing\r\ni: theirs-2\r\n\r\n").utf8)
        sent.withUnsafeBytes { ledger.observeSent($0, to: "10.0.0.7") }
        #expect(ledger.knows(callID: "ours-1", host: "10.0.0.7") && ledger.knows(callID: "theirs-2", host: "10.0.0.7"))
        #expect(!ledger.knows(callID: "ours-1", host: "10.0.0.8"), "a dialog is with one address")
        #expect(ledger.hasDialogs(with: "10.0.0.7") && !ledger.hasDialogs(with: "10.0.0.8"))
        ledger.note(callID: "v6", host: "::1")
        #expect(ledger.knows(callID: "v6", host: "0:0:0:0:0:0:0:1"), "an address however it is spelled")
        for index in 0..<SIPDialogLedger.capacity { ledger.note(callID: "flood-\(index)", host: "10.0.0.9") }
        #expect(!ledger.knows(callID: "ours-1", host: "10.0.0.7"), "the oldest goes first")
        #expect(!ledger.hasDialogs(with: "10.0.0.7") && !ledger.hasDialogs(with: "::1"), "and with it, what its address had")
        #expect(ledger.knows(callID: "flood-\(SIPDialogLedger.capacity - 1)", host: "10.0.0.9"))
    }
}
