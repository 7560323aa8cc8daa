import Foundation
import IntercomBase
@testable import IntercomTUI
import Testing

/// The operator flat's settings on the call screen: `F` shows them, `W` steps `white_rabbit` through
/// the server's minutes, both through the settings command; not in a call (digits and keys there are
/// the call's), and the line names every key the operator sent.
@Suite struct FlatSettingsKeysTests {
    @Test func fAndWAreTheSettingsKeysOutsideACall() {
        let f = Int32(Character("F").asciiValue ?? 0), w = Int32(Character("W").asciiValue ?? 0)
        #expect(KeyAction.of(key: f, inCall: false, ringing: false, quitAsked: false, kiosk: false) == .flatSettings(nextMinutes: false))
        #expect(KeyAction.of(key: w, inCall: false, ringing: false, quitAsked: false, kiosk: true) == .flatSettings(nextMinutes: true))
        #expect(KeyAction.of(key: w, inCall: true, ringing: false, quitAsked: false, kiosk: false) == nil)
        #expect(ScreenText.helpLines.contains { $0.0 == "F / W" })
        #expect(TUILoop.whiteRabbitSteps.first { $0 > 3 } == 5 && TUILoop.whiteRabbitSteps.first { $0 > 10 } == nil)
    }

    @Test func theLineNamesEveryKeyTheOperatorSent() throws {
        let settings = try #require(JSONValue.parse(#"{"operator":"yard","flat":"7","cms":true,"voip":false,"auto_open":"off","white_rabbit":5,"door_code":"12345","disable_plog":null,"hidden_plog":null,"keys":null}"#))
        #expect(TUILoop.flatSettingsLine(settings) == "yard, flat 7: cms on, voip off, auto_open off, white_rabbit 5 min, door_code 12345")
    }
}
