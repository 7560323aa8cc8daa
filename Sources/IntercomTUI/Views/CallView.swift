import Foundation
import IntercomCore

/// What the screen shows of one call.
struct CallView: Equatable {
    enum Stage: Equatable { case ringing, active }
    var id: CallID
    var panel: String?
    var from: String
    var stage: Stage
    var since: Date
    var answeredBy: String?

    var title: String { panel ?? from }
}
