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
