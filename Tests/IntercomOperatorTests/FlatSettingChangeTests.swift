import Foundation
import Testing
@testable import IntercomOperator

/// `intercom settings KEY=VALUE`: what each key sends, and every refusal a usage line.
@Suite struct FlatSettingChangeTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func change(_ text: String) -> FlatSettingChange? { try? FlatSettingChange.parse(text, now: now).get() }
    func refusal(_ text: String) -> String? {
        if case .failure(let error) = FlatSettingChange.parse(text, now: now) { return error.description }
        return nil
    }

    @Test func flagsBecomeStringBooleans() {
        #expect(change("cms=off") == FlatSettingChange(key: "cms", wireKey: "CMS", wireValue: "f"))
        #expect(change("voip=on") == FlatSettingChange(key: "voip", wireKey: "VoIP", wireValue: "t"))
        // The server computes FRSDisabled and LPRSDisabled and never reads them from a request.
        #expect(refusal("frs=on")?.contains("frs is read only: the operator's server never reads it") == true)
        #expect(refusal("lprs=off")?.contains("lprs is read only") == true)
        #expect(refusal("cms=maybe")?.contains("on or off") == true)
    }

    @Test func whiteRabbitTakesTheServersMinutes() {
        for minutes in [0, 1, 2, 3, 5, 7, 10] {
            #expect(change("white_rabbit=\(minutes)")?.wireValue == String(minutes))
        }
        #expect(change("white_rabbit=off")?.wireValue == "0")
        #expect(refusal("white_rabbit=4")?.contains("0, 1, 2, 3, 5, 7 or 10") == true)
    }

    @Test func autoOpenTakesATimeADurationOrOff() throws {
        #expect(change("auto_open=off")?.wireValue == OperatorTime.past)
        let inTwoHours = try #require(change("auto_open=2h"))
        #expect(inTwoHours.wireKey == "autoOpen")
        #expect(OperatorTime.parse(inTwoHours.wireValue) == now.addingTimeInterval(7200))
        #expect(change("auto_open=2027-01-15 18:30")?.wireValue == "2027-01-15 18:30:00")
        #expect(refusal("auto_open=2020-01-01 10:00")?.contains("in the past") == true)
        #expect(refusal("auto_open=soon") != nil)
    }

    @Test func doorCodeTakesNewAndUnknownKeysAreNamed() {
        #expect(change("door_code=new")?.resetsDoorCode == true)
        #expect(change("cms=on")?.resetsDoorCode == false)
        #expect(refusal("door_code=1234")?.contains("door_code takes only 'new'") == true)
        #expect(refusal("volume=3")?.contains("unknown setting 'volume'") == true)
        #expect(refusal("cms")?.contains("KEY=VALUE") == true)
    }
}
