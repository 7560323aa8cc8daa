import Foundation
import IntercomBase
import Testing
@testable import IntercomTUI

/// The first run points the way in the screen too (issue 38): a screen with no door to show (no
/// config, or one with nothing in it) names `intercom setup` and `intercom demo` where its doors go;
/// a screen with doors does not.
@Suite struct FirstRunScreenTests {
    @Test func aScreenWithNoDoorNamesSetupAndDemo() {
        let model = ScreenModel()
        let lines = model.infoLines(now: Date(), height: 20)
        #expect(lines.contains(InfoLine("  \(FirstRunHint.text)", .warn)), "\(lines)")
        #expect(FirstRunHint.text.contains("intercom setup") && FirstRunHint.text.contains("intercom demo"))
    }
}
