import Foundation
import Testing
@testable import IntercomOperator
import IntercomBase

/// The models read the observed bodies, ids as strings or numbers and "t"/"f" booleans alike.
@Suite struct OperatorModelTests {
    func data(_ json: String) throws -> JSONValue {
        try #require(JSONValue.parse(json))
    }

    @Test func addressListAsObserved() throws {
        let list = OperatorAddress.list(try data(#"""
            [{"houseId":"1","address":"Test Street, 1","hasPlog":"t","doors":[{"domophoneId":"1","doorId":0,"icon":"entrance","name":"Entrance 1","doorCode":"12345"}],"cctv":1}]
            """#))
        #expect(list == [OperatorAddress(houseId: "1", address: "Test Street, 1", hasPlog: true, doors: [
            OperatorDoor(domophoneId: "1", doorId: 0, name: "Entrance 1", icon: "entrance", doorCode: "12345"),
        ])])
    }

    @Test func idsAsNumbersAndBlockedDoors() throws {
        let list = OperatorAddress.list(try data(#"""
            [{"houseId":2,"address":"B","doors":[{"domophoneId":7,"doorId":"1","name":"Gate","blocked":"Услуга не оплачена"}]}]
            """#))
        let door = try #require(list?.first?.doors.first)
        #expect(list?.first?.houseId == "2")
        #expect(list?.first?.hasPlog == false)
        #expect(door.domophoneId == "7")
        #expect(door.doorId == 1)
        #expect(door.blocked == "Услуга не оплачена")
    }

    @Test func noContentAddressListIsEmpty() {
        #expect(OperatorAddress.list(nil) == [])
        #expect(OperatorAddress.list(.string("oops")) == nil)
    }

    @Test func settingsListGivesFlatIds() throws {
        let flats = OperatorFlat.list(try data(#"""
            [{"flatId":"7","flatNumber":"12","houseId":"1","address":"Test Street, 1, кв. 12","flatOwner":"t","hasGates":"f","hasPlog":"t","services":["domophone"],"contractOwner":"t","roommates":[{"phone":"79123456782","expire":"3001-01-01 00:00:00","type":"inner"}]}]
            """#))
        #expect(flats == [OperatorFlat(flatId: "7", flatNumber: "12", houseId: "1", address: "Test Street, 1, кв. 12",
                                       isOwner: true, hasPlog: true,
                                       roommates: [OperatorRoommate(phone: "79123456782", type: "inner", expire: "3001-01-01 00:00:00")])])
        #expect(flats?.first?.roommates.first?.isPhone("79123456782") == true)
        #expect(OperatorRoommate(phone: "89123456782").isPhone("79123456782"))
    }

    @Test func camerasAsObserved() throws {
        let cameras = OperatorCamera.list(try data(#"""
            [{"id":1,"path":null,"pathOrder":null,"name":"Test Camera 1","lat":"55.75","lon":"37.61","url":"http://dvr.example/cam1","token":"","serverType":"flussonic","hasSound":false}]
            """#))
        #expect(cameras == [OperatorCamera(id: "1", name: "Test Camera 1", url: "http://dvr.example/cam1",
                                           serverType: "flussonic", hasSound: false)])
    }

    @Test func intercomSettingsAsObserved() throws {
        let settings = try #require(FlatSettings(json: try data(#"""
            {"allowDoorCode":"t","doorCode":"12345","CMS":"t","VoIP":"f","autoOpen":"1970-01-01 00:00:00","whiteRabbit":"5","disablePlog":"f","hiddenPlog":"f"}
            """#)))
        #expect(settings.cms == true)
        #expect(settings.voip == false)
        #expect(settings.frs == nil)
        #expect(settings.whiteRabbit == 5)
        #expect(settings.doorCode == "12345")
        let fields = Dictionary(uniqueKeysWithValues: settings.fields())
        #expect(fields["auto_open"] == .string("off"))
        #expect(fields["frs"] == .null)
    }

    @Test func doorCodeHiddenWhenNotAllowed() throws {
        let settings = try #require(FlatSettings(json: try data(#"{"allowDoorCode":"f","doorCode":"00000","FRSDisabled":"t"}"#)))
        #expect(settings.doorCode == nil)
        #expect(settings.frs == false)
    }

    @Test func eventLogAsObserved() throws {
        let days = PlogDay.list(try data(#"[{"day":"2026-12-01","events":5}]"#))
        #expect(days == [PlogDay(day: "2026-12-01", events: 5)])
        let entries = try #require(PlogEntry.list(try data(#"""
            [{"date":"2026-12-01 10:13:59","uuid":"5f7b","previewType":0,"objectId":"1","objectType":"0","objectMechanizma":"0","mechanizmaDescription":"Entrance 1","houseId":1,"entranceId":1,"event":"4","detailX":{"phone":"79123456781"}},
             {"date":"2026-12-01 11:00:00","event":3,"preview":"https://op.example/mobile/address/plogCamshot/ab","mechanizmaDescription":"Gate","detailX":{"key":"0000AB12","opened":"t"},"timezone":"Europe/Moscow"},
             {"date":"garbage","event":"1"}]
            """#)))
        #expect(entries.count == 2)
        #expect(entries[0].event == .openedByApp)
        #expect(entries[0].eventName == "opened_by_app")
        #expect(entries[0].door == "Entrance 1")
        #expect(entries[0].detail.first?.1 == "79123456781")
        #expect(entries[1].event == .openedByKey)
        #expect(entries[1].preview == "https://op.example/mobile/address/plogCamshot/ab")
        // 11:00 in Moscow (UTC+3) is 08:00 UTC.
        #expect(RFC3339.string(entries[1].time).hasPrefix("2026-12-01T08:00:00"))
    }

    @Test func eventNames() {
        let names = [1, 2, 3, 4, 5, 6, 7, 8, 9].map { PlogEvent(rawValue: $0)?.name }
        #expect(names == ["call_missed", "call_answered", "opened_by_key", "opened_by_app", "opened_by_face",
                          "opened_by_code", "gate_by_call", nil, "opened_by_plate"])
    }

    @Test func loginAnswers() throws {
        #expect(LoginChallenge(json: try data(#"{"method":"sms"}"#)) == .sms)
        #expect(LoginChallenge(json: nil) == .sms)
        #expect(LoginChallenge(json: try data(#"{"method":"outgoingCall","confirmationNumbers":["74951234567",78001234567]}"#))
                == .outgoingCall(numbers: ["74951234567", "78001234567"]))
        let grant = try #require(LoginGrant(json: try data(#"{"accessToken":"3b8e-secret","names":{"name":"Ivan","patronymic":"","last":"Petrov"}}"#)))
        #expect(grant.token == "3b8e-secret")
        #expect(grant.name == "Ivan Petrov")
        #expect(!String(describing: grant).contains("3b8e-secret"))
        #expect(LoginGrant(json: try data(#"{"names":{}}"#)) == nil)
    }

    @Test func itemIdsRoundTrip() {
        let door = OperatorItemID.door(operator: "home", domophoneId: "1", doorId: 0)
        #expect(door == "home:1:0")
        #expect(OperatorItemID.parseDoor(door)?.operatorName == "home")
        #expect(OperatorItemID.parseDoor(door)?.domophoneId == "1")
        #expect(OperatorItemID.parseDoor("a:b:12:2")?.operatorName == "a:b")
        #expect(OperatorItemID.parseDoor("home:cam:1") == nil)
        #expect(OperatorItemID.parseDoor("entrance") == nil)
        #expect(OperatorItemID.parseDoor("entrance:alt") == nil)
        let camera = OperatorItemID.camera(operator: "home", cameraId: "3")
        #expect(camera == "home:cam:3")
        #expect(OperatorItemID.parseCamera(camera)?.cameraId == "3")
        #expect(OperatorItemID.parseCamera(door) == nil)
        let entrance = OperatorItemID.entrance(operator: "home", entranceId: "102")
        #expect(entrance == "home:entrance:102")
        #expect(OperatorItemID.parseEntrance(entrance)?.entranceId == "102")
        #expect(OperatorItemID.parseEntrance(entrance)?.operatorName == "home")
        // Not a door of a panel named "entrance", nor a camera.
        #expect(OperatorItemID.parseDoor(entrance) == nil)
        #expect(OperatorItemID.parseCamera(entrance) == nil)
        #expect(OperatorItemID.parseEntrance(door) == nil)
    }

    /// `getSettingsList.php`: `doorCode` only for a flat with a code, `keys` only for its owner.
    @Test func settingsListDoorCodeAndKeys() throws {
        let flats = try #require(OperatorFlat.list(try data(#"""
            [{"flatId":"7","doorCode":"54321","flatOwner":"t","keys":[{"keyId":1,"rfId":"0000000A1B2C3D","accessType":2,"accessTo":7,"lastSeen":null,"comments":"Ключ 1"},{"keyId":"2","rfId":"00000012345678","accessType":"2","accessTo":"7","lastSeen":"2026-12-01 10:00:00","comments":""}]},
             {"flatId":"8","flatOwner":"f"}]
            """#)))
        #expect(flats.first?.doorCode == "54321")
        #expect(flats.first?.keys == [OperatorKey(rfId: "0000000A1B2C3D", comment: "Ключ 1"),
                                      OperatorKey(rfId: "00000012345678", lastSeen: "2026-12-01 10:00:00")])
        #expect(flats.last?.doorCode == nil)
        #expect(flats.last?.keys == nil)
        // address/intercom writes "00000" for a flat without a code (allowDoorCode is always "t").
        let none = try #require(FlatSettings(json: try data(#"{"allowDoorCode":"t","doorCode":"00000"}"#)))
        #expect(none.doorCode == nil)
        #expect(Dictionary(uniqueKeysWithValues: none.fields())["door_code"] == .string("off"))
    }
}
