import Foundation
import Testing
import IntercomBase
import IntercomOperator

/// The door-id grammar, read in one place (`DoorTarget`) by `intercom open`, `ctl open`, the
/// socket's `open` and the engine: a panel's name, `PANEL:DOOR`, `OPERATOR:DOMOPHONE:DOOR`.
@Suite struct DoorTargetTests {
    static let porch = PanelConfig(name: "Porch", url: "http://127.0.0.1:9")
    static let home = OperatorConfig(name: "home", api: "https://operator.invalid/mobile")
    static let config = IntercomConfig(panels: [porch], operators: [home], daemon: .defaults(environment: [:]))

    @Test func aPanelsNameAndItsDoors() {
        #expect(DoorTarget.resolve("porch", in: Self.config) == .panel(Self.porch, door: nil))
        #expect(DoorTarget.resolve("PORCH:alt", in: Self.config) == .panel(Self.porch, door: .alt))
        #expect(DoorTarget.resolve("porch:light", in: Self.config) == .panel(Self.porch, door: .light))
        #expect(DoorTarget.resolve("porch:3", in: Self.config) == .panel(Self.porch, door: .output(3)))
    }

    @Test func anOperatorsDoorTakesTheOperatorsOwnSpelling() {
        #expect(DoorTarget.resolve("HOME:12:0", in: Self.config)
                == .operatorDoor(Self.home, domophoneId: "12", doorId: 0, id: "home:12:0"))
        // An operator name with a colon in it: the last two parts are the door.
        let odd = OperatorConfig(name: "a:b", api: "https://operator.invalid/mobile")
        let config = IntercomConfig(operators: [odd], daemon: .defaults(environment: [:]))
        #expect(DoorTarget.resolve("a:b:7:1", in: config) == .operatorDoor(odd, domophoneId: "7", doorId: 1, id: "a:b:7:1"))
    }

    @Test func aPanelsOwnNameWinsOverEitherReading() {
        let odd = PanelConfig(name: "home:1:0", url: "http://127.0.0.1:9")
        let config = IntercomConfig(panels: [odd, Self.porch], operators: [Self.home], daemon: .defaults(environment: [:]))
        #expect(DoorTarget.resolve("home:1:0", in: config) == .panel(odd, door: nil))
        #expect(DoorTarget.resolve("home:1:1", in: config) == .operatorDoor(Self.home, domophoneId: "1", doorId: 1, id: "home:1:1"))
    }

    @Test func whatNamesNothing() {
        for id in ["", "attic", "porch:attic", "porch:-1", ":alt", "nobody:1:0", "home:cam:1", "home:1:x", "porch:"] {
            #expect(DoorTarget.resolve(id, in: Self.config) == nil, "\(id)")
        }
    }
}
