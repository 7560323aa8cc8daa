import Foundation
import IntercomBase

/// What the screen shows of one call.
struct CallView: Equatable {
    /// `dialing`: we called the panel and it has not accepted yet.
    enum Stage: Equatable { case ringing, active, dialing }
    var id: CallID
    var panel: String?
    var from: String
    var stage: Stage
    var since: Date
    var answeredBy: String?

    /// `answeredBy` of a call another attached screen answered.
    static let anotherScreen = "another screen"

    var title: String { panel ?? from }
}
