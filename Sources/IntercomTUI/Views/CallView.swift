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
    /// A call another face answered while this screen is attached: the line that says who
    /// ("answered at screen 2 (kiosk, anna)", "answered with ctl (root)").
    var answeredElsewhere: String?
    /// An answered call put on hold: another call was answered, or it waits for an attended
    /// transfer's consultation.
    var held = false

    var title: String { panel ?? from }

    /// What the queue says of it: ringing and for how long, in call, on hold, calling.
    func state(now: Date) -> String {
        switch stage {
        case .ringing: "ringing \(ScreenModel.duration(now.timeIntervalSince(since)))"
        case .active: held ? "on hold" : "in call"
        case .dialing: "calling"
        }
    }
}
