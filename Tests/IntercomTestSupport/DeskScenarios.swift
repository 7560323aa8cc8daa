import Foundation

/// A panel that does not do transfers: it answers our REFER with 405, as a Beward panel without
/// REFER support would, and hangs up with BYE after `hangupAfter`.
extension BewardScenarios {
    package static func panelCallRefusingTransfer(hangupAfter: Duration = .seconds(3), user: String = panelUser) -> String {
        panelCall(hangupAfter: hangupAfter, video: false, user: user, name: "Beward panel call refusing REFER",
                  inCall: """
                    <recv request="REFER"/>
                  \(response("405 Method Not Allowed", toTag: false))
                  """)
    }
}

/// A panel that takes our REFER (202) and then reports that its call to the target failed with
/// `status` (a NOTIFY whose `message/sipfrag` body is `SIP/2.0 STATUS`), as a flat that is busy or
/// does not exist makes it; it hangs up with BYE after `hangupAfter`.
extension BewardScenarios {
    package static func panelCallWhoseTransferFails(_ status: String, hangupAfter: Duration = .seconds(3),
                                                    user: String = panelUser) -> String {
        panelCall(hangupAfter: hangupAfter, video: false, user: user, name: "Beward panel call, transfer fails \(status)",
                  inCall: """
                    <recv request="REFER"/>
                  \(response("202 Accepted", toTag: false))
                    <pause milliseconds="200"/>
                    <send retrans="500">
                      <![CDATA[

                        NOTIFY [next_url] SIP/2.0
                        Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
                        [routes]
                        From: "Panel" <sip:\(user)@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
                        To: <sip:[service]@[remote_ip]:[remote_port]>[peer_tag_param]
                        Call-ID: [call_id]
                        CSeq: 2 NOTIFY
                        Contact: <sip:\(user)@[local_ip]:[local_port]>
                        Event: refer
                        Subscription-State: terminated;reason=noresource
                        Content-Type: message/sipfrag;version=2.0
                        Max-Forwards: 70
                        Content-Length: [len]

                        SIP/2.0 \(status)

                      ]]>
                    </send>
                    <recv response="200"/>
                  """, byeCSeq: 3)
    }
}
