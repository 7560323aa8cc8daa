import Foundation

/// A panel that does not do transfers: it answers our REFER with 405, as a Beward panel without
/// REFER support would, and hangs up with BYE after `hangupAfter`.
extension BewardScenarios {
    package static func panelCallRefusingTransfer(hangupAfter: Duration = .seconds(3), user: String = panelUser) -> String {
        panelCall(hangupAfter: hangupAfter, video: false, user: user, name: "Beward panel call refusing REFER",
                  inCall: [#"  <recv request="REFER"/>"#, response("405 Method Not Allowed", toTag: false)].joined(separator: "\n"))
    }
}

/// A panel that takes our REFER (202) and then reports that its call to the target failed with
/// `status` (a NOTIFY whose `message/sipfrag` body is `SIP/2.0 STATUS`), as a flat that is busy or
/// does not exist makes it; it hangs up with BYE after `hangupAfter`.
extension BewardScenarios {
    package static func panelCallWhoseTransferFails(_ status: String, hangupAfter: Duration = .seconds(3),
                                                    user: String = panelUser) -> String {
        let notify = SIPMessage.sippRequest("NOTIFY", user: user, cseq: 2, inDialog: true,
                                            more: ["Event: refer", "Subscription-State: terminated;reason=noresource"],
                                            contentType: "message/sipfrag;version=2.0", body: "SIP/2.0 \(status)")
        return panelCall(hangupAfter: hangupAfter, video: false, user: user, name: "Beward panel call, transfer fails \(status)",
                         inCall: [#"  <recv request="REFER"/>"#, response("202 Accepted", toTag: false),
                                  SippScenario.pause(.milliseconds(200)), notify.sippSend(#"retrans="500""#),
                                  #"  <recv response="200"/>"#].joined(separator: "\n"), byeCSeq: 3)
    }
}
