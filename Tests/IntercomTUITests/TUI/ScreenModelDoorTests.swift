import Foundation
import IntercomBase
import IntercomEngine
import IntercomPhone
@testable import IntercomTUI
import Testing

/// Operator doors beside the panels on the screen: the list, Tab choosing the door `o` opens
/// without a call, the kiosk's numbers, and "open request accepted" for an operator's door.
@Suite struct ScreenModelDoorTests {
    let doors = [
        DoorListing.panel("entrance"),
        DoorListing(id: "home:1:0", name: "Entrance 1", source: .operator, owner: "home", address: "Lenina 1",
                    domophoneId: "1", doorId: 0),
        DoorListing(id: "home:1:1", name: "Gate", source: .operator, owner: "home", address: "Lenina 1",
                    domophoneId: "1", doorId: 1),
    ]

    @Test func withoutAChosenDoorOOpensAsBefore() {
        var model = ScreenModel()
        model.updateDoors(doors)
        #expect(model.openTarget(door: .main) == nil)
        model.apply(IntercomEvent(.callIncoming(.init(id: CallID("c1"), panel: "entrance", from: "sip:panel@x"))))
        #expect(model.openTarget(door: .main) == "entrance")
        #expect(model.openTarget(door: .alt) == "entrance")
    }

    @Test func tabChoosesTheDoorOOpens() {
        var model = ScreenModel()
        model.updateDoors(doors)
        model.chooseNextDoor()
        #expect(model.chosenDoor == "entrance" && model.openTarget(door: .main) == "entrance")
        model.chooseNextDoor()
        #expect(model.chosenDoor == "home:1:0" && model.openTarget(door: .main) == "home:1:0")
        #expect(model.message?.text == "o opens Entrance 1 (home)")
        // An operator's door has no second door or gate output: O and g stay the panel's.
        #expect(model.openTarget(door: .alt) == nil && model.openTarget(door: .light) == nil)
        model.chooseNextDoor()
        model.chooseNextDoor()
        #expect(model.chosenDoor == "entrance", "wraps around")
        // A call on the screen wins over the chosen door.
        model.chooseNextDoor()
        model.apply(IntercomEvent(.callIncoming(.init(id: CallID("c1"), panel: "home:1:0", from: "sip:100001@pbx"))))
        model.chosenDoor = "home:1:1"
        #expect(model.openTarget(door: .main) == "home:1:0")
    }

    @Test func aDoorThatIsGoneIsNoLongerChosen() {
        var model = ScreenModel()
        model.updateDoors(doors)
        model.chosenDoor = "home:1:1"
        model.updateDoors(Array(doors.prefix(2)))
        #expect(model.chosenDoor == nil && model.doors.count == 2)
    }

    @Test func kioskNumbersCountPanelsThenOperatorDoors() {
        var model = ScreenModel()
        model.updateDoors(doors)
        #expect(model.kioskDoor(0) == "entrance" && model.kioskDoor(1) == "home:1:0" && model.kioskDoor(2) == "home:1:1")
        #expect(model.kioskDoor(3) == nil)
        #expect(KeyAction.of(key: Int32(UInt8(ascii: "2")), inCall: false, ringing: false, quitAsked: false, kiosk: true)
                == .openDoor(index: 1))
    }

    @Test func anOperatorsOpeningSaysRequestAccepted() {
        var model = ScreenModel()
        model.apply(IntercomEvent(.doorOpened(panel: "home", call: nil, door: "home:1:0", method: "operator", by: .key,
                                              ok: true, error: nil)))
        #expect(model.message?.text == "open request accepted by home (home:1:0)" && model.message?.warn == false)
        #expect(model.recent.first?.hasSuffix("open request accepted by home (home:1:0)") == true)
        model.apply(IntercomEvent(.doorOpened(panel: "home", call: nil, door: "home:1:0", method: "operator", by: .key,
                                              ok: false, error: "not logged in to home; run 'intercom login home'")))
        #expect(model.message?.text == "open request for home:1:0 failed: not logged in to home; run 'intercom login home'")
        #expect(model.message?.warn == true)
        model.apply(IntercomEvent(.doorOpened(panel: "entrance", call: nil, door: "main", method: "http", by: .key,
                                              ok: true, error: nil)))
        #expect(model.message?.text == "door main of entrance opened (http)")
    }
}
