import Foundation
import IntercomBase
import IntercomCore
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

    @Test func withoutAChosenDoorOAsksWhichWhenSeveralAreMeant() {
        var model = ScreenModel()
        model.updateDoors(doors)
        #expect(model.openChoice(door: .main) == .ask, "three doors: a single key does not guess")
        #expect(model.openChoice(door: .alt) == .open("entrance"), "only one panel has a second door")
        model.apply(IntercomEvent(.callIncoming(.init(id: CallID("c1"), panel: "entrance", from: "sip:panel@x"))))
        #expect(model.openChoice(door: .main) == .open("entrance"))
        #expect(model.openChoice(door: .alt) == .open("entrance"))
        var one = ScreenModel()
        one.updateDoors([DoorListing.panel("entrance")])
        #expect(one.openChoice(door: .main) == .open("entrance"), "exactly one door: no question")
    }

    @Test func thePromptFindsADoorByNumberNameOrPart() {
        var model = ScreenModel()
        model.updateDoors(doors)
        #expect(model.doorsMatching("2", door: .main).map(\.id) == ["home:1:0"])
        #expect(model.doorsMatching("ENTR", door: .main).map(\.id) == ["entrance", "home:1:0"], "a prefix of either name")
        #expect(model.doorsMatching("entrance", door: .main).map(\.id) == ["entrance"], "a whole name wins")
        #expect(model.doorsMatching("gate", door: .main).map(\.id) == ["home:1:1"])
        #expect(model.doorsMatching("gate", door: .alt).isEmpty, "an operator's door has no second door")
        #expect(model.doorsMatching("nowhere", door: .main).isEmpty)
        model.doorPrompt = (.main, "ga")
        #expect(model.promptLine(filterShown: nil) == "open which door? (name or number): ga_   Gate (home)")
        let escaped = model.escape()
        #expect(escaped && model.doorPrompt == nil, "Esc cancels the prompt")
    }

    @Test func tabChoosesTheDoorOOpens() {
        var model = ScreenModel()
        model.updateDoors(doors)
        model.chooseNextDoor()
        #expect(model.chosenDoor == "entrance" && model.openChoice(door: .main) == .open("entrance"))
        model.chooseNextDoor()
        #expect(model.chosenDoor == "home:1:0" && model.openChoice(door: .main) == .open("home:1:0"))
        #expect(model.message?.text == "o opens Entrance 1 (home)")
        // An operator's door has no second door or gate output: O and g stay the panel's.
        #expect(model.openChoice(door: .alt) == .open("entrance") && model.openChoice(door: .light) == .open("entrance"))
        model.chooseNextDoor()
        model.chooseNextDoor()
        #expect(model.chosenDoor == "entrance", "wraps around")
        // A call on the screen wins over the chosen door.
        model.chooseNextDoor()
        model.apply(IntercomEvent(.callIncoming(.init(id: CallID("c1"), panel: "home:1:0", from: "sip:100001@pbx"))))
        model.chosenDoor = "home:1:1"
        #expect(model.openChoice(door: .main) == .open("home:1:0"))
    }

    @Test func aDoorThatIsGoneIsNoLongerChosen() {
        var model = ScreenModel()
        model.updateDoors(doors)
        model.chosenDoor = "home:1:1"
        model.updateDoors(Array(doors.prefix(2)))
        #expect(model.chosenDoor == nil && model.doors.count == 2)
    }

    @Test func aKioskDigitSelectsADoorAndOOpensIt() {
        var model = ScreenModel()
        model.updateDoors(doors)
        #expect(KeyAction.of(key: Int32(UInt8(ascii: "2")), inCall: false, ringing: false, quitAsked: false, kiosk: true)
                == .selectDoor(index: 1))
        #expect(KeyAction.of(key: Int32(UInt8(ascii: "2")), inCall: false, ringing: true, quitAsked: false, kiosk: true)
                == .selectDoor(index: 1), "selecting is safe while a call rings")
        #expect(KeyAction.of(key: Int32(UInt8(ascii: "2")), inCall: true, ringing: false, quitAsked: false, kiosk: true)
                == .command(.dtmf(nil, digits: "2")), "in a call a digit is DTMF")
        model.selectDoor(2)
        #expect(model.chosenDoor == "home:1:1" && model.focusedPanel == "home:1:1")
        #expect(model.openChoice(door: .main) == .open("home:1:1"))
        #expect(model.keyBar(kiosk: .init(page: 0, pages: 1, shown: 1), directory: []).fit(200).contains("o open Gate (home)"))
        model.selectDoor(7)
        #expect(model.message?.text == "there is no door 8" && model.chosenDoor == "home:1:1")
        // A ringing call elsewhere does not take the selection from the chosen door...
        let ring = IntercomEvent.CallRef(id: CallID("c1"), panel: "entrance", from: "sip:100001@x")
        model.apply(IntercomEvent(.callIncoming(ring)))
        model.selectDoor(2)
        #expect(model.focusedPanel == "home:1:1" && model.openChoice(door: .main) == .open("home:1:1"))
        // ...and the ringing panel's digit selects its call.
        model.selectDoor(0)
        #expect(model.selectedCall?.id == ring.id && model.focusedPanel == "entrance" && !model.doorFocus)
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
