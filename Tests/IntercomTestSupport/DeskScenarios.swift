import Foundation

/// A panel that does not do transfers: it answers our REFER with 405, as a Beward panel without
/// REFER support would, and hangs up with BYE after `hangupAfter`.
extension BewardScenarios {
    package static func panelCallRefusingTransfer(hangupAfter: Duration = .seconds(3), user: String = panelUser) -> String {
        """
        <?xml version="1.0" encoding="ISO-8859-1" ?>
        <!DOCTYPE scenario SYSTEM "sipp.dtd">
        <scenario name="Beward panel call refusing REFER">
        \(invite(user: user, video: false, transaction: false))
          <recv response="100" optional="true"/>
          <recv response="180" optional="true"/>
          <recv response="183" optional="true"/>
          <recv response="200" rtd="true" rrs="true"/>
          <send>
            <![CDATA[

              ACK [next_url] SIP/2.0
              Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
              [routes]
              From: "Panel" <sip:\(user)@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
              To: <sip:[service]@[remote_ip]:[remote_port]>[peer_tag_param]
              Call-ID: [call_id]
              CSeq: 1 ACK
              Contact: <sip:\(user)@[local_ip]:[local_port]>
              Max-Forwards: 70
              Content-Length: 0

            ]]>
          </send>
          <nop>
            <action>
              <exec play_pcap_audio="\(g711aPcap)"/>
            </action>
          </nop>
          <recv request="REFER"/>
        \(response("405 Method Not Allowed", toTag: false))
          <pause milliseconds="\(milliseconds(hangupAfter))"/>
          <send retrans="500">
            <![CDATA[

              BYE [next_url] SIP/2.0
              Via: SIP/2.0/[transport] [local_ip]:[local_port];branch=[branch]
              [routes]
              From: "Panel" <sip:\(user)@[local_ip]:[local_port]>;tag=[pid]SIPpTag00[call_number]
              To: <sip:[service]@[remote_ip]:[remote_port]>[peer_tag_param]
              Call-ID: [call_id]
              CSeq: 2 BYE
              Contact: <sip:\(user)@[local_ip]:[local_port]>
              Max-Forwards: 70
              Content-Length: 0

            ]]>
          </send>
          <recv response="200" crlf="true"/>
        </scenario>

        """
    }
}
