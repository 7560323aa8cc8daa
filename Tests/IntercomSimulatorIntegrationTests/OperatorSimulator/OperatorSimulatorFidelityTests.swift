import Foundation
import IntercomTestSupport
import IntercomBase
import IntercomSimulator
import Testing

/// What the simulated operator answers where the real server's PHP was read again: the login
/// texts in the request's language (`server/i18n/*.json`), `getSettingsList`'s `doorCode` and
/// `keys`, `cctv/camMap` once per entrance, and `frs/like`/`frs/disLike` as the PHP decides them.
@Suite(.removesTestFolders) struct OperatorSimulatorFidelityTests {
    static let sms = SimulatedOperatorOptions(confirmMethod: .sms)
    static let confirmWrong = #"{"userPhone":"79123456781","smsCode":"0000"}"#

    @Test func loginTextsFollowAcceptLanguage() async throws {
        try await withOperator(Self.sms) { _, curl in
            let ru = "ru-RU,ru;q=0.9"
            _ = try await curl.post("user/requestCode", #"{"userPhone":"79123456781"}"#, language: ru)
            for attempt in 1...5 {
                let wrong = try await curl.post("user/confirmCode", Self.confirmWrong, language: attempt == 2 ? "de" : ru)
                #expect(wrong.status == 403)
                // mobile.pinError: Russian for ru, English for a language without a file.
                let expected = attempt == 2 ? "The PIN code was entered incorrectly" : "Пин-код введен неверно"
                #expect(wrong.message == expected && wrong.json?["name"]?.stringValue == expected, "\(wrong.text)")
            }
            let sixth = try await curl.post("user/confirmCode", Self.confirmWrong, language: ru)
            #expect(sixth.status == 403 && sixth.message == "Превышено максимальное число попыток ввода", "\(sixth.text)")
            // The plain status texts are the language file's responses.NNNName.
            let none = try await curl.post("user/confirmCode", Self.confirmWrong, language: ru)
            #expect(none.status == 404 && none.message == "Не найдено", "\(none.text)")
            #expect(try await curl.post("user/confirmCode", Self.confirmWrong).message == "Not Found")
            let bad = try await curl.post("user/requestCode", #"{"userPhone":"12"}"#, language: ru)
            #expect(bad.status == 422 && bad.message == "Необрабатываемый экземпляр", "\(bad.text)")
            _ = try await curl.post("user/requestCode", #"{"userPhone":"79990001122"}"#)
            let soon = try await curl.post("user/requestCode", #"{"userPhone":"79990001122"}"#, language: ru)
            #expect(soon.status == 429 && soon.message == "Слишком много запросов", "\(soon.text)")
            let called = try await curl.post("user/checkPhone", #"{"userPhone":"79990001122"}"#, language: ru)
            #expect(called.status == 401 && called.message == "Не авторизован", "\(called.text)")
        }
    }

    @Test func theDeviceLimitIsSaidInTheRequestersLanguage() async throws {
        var options = Self.sms
        options.deviceLimit = 1
        try await withOperator(options) { simulator, curl in
            _ = try await curl.login(simulator, device: "first")
            _ = try await curl.post("user/requestCode", #"{"userPhone":"79123456781"}"#)
            let second = try await curl.post("user/confirmCode", #"{"userPhone":"79123456781","smsCode":"1001","deviceToken":"second"}"#,
                                             language: "ru")
            #expect(second.status == 403 && second.message == "Запрещено", "\(second.text)")
            #expect(second.data?["error"]?.stringValue == "Превышен лимит устройств на мобильный номер", "\(second.text)")
        }
    }

    @Test func settingsListHasTheDoorCodeUnlessItIsNoneAndTheOwnersKeys() async throws {
        try await withOperator { simulator, curl in
            let token = try await curl.login(simulator)
            let list = try await curl.post("address/getSettingsList", token: token)
            let flat = try #require(list.data?.list.first)
            #expect(flat["doorCode"] == .string("12345"))
            #expect(flat["contractOwner"] == .string("t"))
            // The backend's getKeys map, in its order.
            #expect(list.text.contains(#""keys":[{"keyId":1,"rfId":"0000000A1B2C3D","accessType":2,"accessTo":1,"lastSeen":null,"comments":"Ключ 1"}]"#),
                    "\(list.text)")
        }
        var none = SimulatedOperatorOptions()
        none.doorCode = "00000"
        none.keys = []
        try await withOperator(none) { simulator, curl in
            let token = try await curl.login(simulator)
            let flat = try #require(try await curl.post("address/getSettingsList", token: token).data?.list.first)
            #expect(flat["doorCode"] == nil, "\(flat)")
            #expect(flat["keys"] == .array([]))
            // address/intercom: allowDoorCode is always "t", and the code "00000".
            let settings = try await curl.post("address/intercom", #"{"flatId":"1"}"#, token: token)
            #expect(settings.text.contains(#""allowDoorCode":"t","doorCode":"00000""#), "\(settings.text)")
        }
    }

    @Test func camMapListsThePanelOncePerEntrance() async throws {
        var options = SimulatedOperatorOptions(cameras: false)
        options.panelEntrances = 2
        try await withOperator(options) { simulator, curl in
            let token = try await curl.login(simulator)
            let items = try #require(try await curl.post("cctv/camMap", token: token).data?.list)
            #expect(items.count == 2)
            #expect(items.map { $0["id"] } == [.string("1"), .string("1")])
            #expect(items.map { $0["entranceId"] } == [.string("1"), .string("102")])
            #expect(items.map { $0["url"]?.stringValue?.hasSuffix("/cctv/1") ?? false } == [true, false])
            #expect(items.last?["url"]?.stringValue?.hasSuffix("/cctv/102") == true)
            // altCameras only when an entrance has some; frs and hasSound as the PHP writes them.
            #expect(items.allSatisfy { $0["altCameras"] == nil && $0["frs"] == .string("f") && $0["hasSound"] == .bool(false) })
        }
    }

    @Test func likeRefusesOnlyAnEntryWithoutAPictureAndAsksTheFaceServerForTheRest() async throws {
        try await withOperator { simulator, curl in
            let token = try await curl.login(simulator)
            simulator.recordCall(answered: false, picture: false)
            simulator.recordCall(answered: true)
            simulator.recordRecognition(face: 17)
            let day = try #require(try await curl.post("address/plogDays", #"{"flatId":"1"}"#, token: token).data?.list.first?["day"]?.stringValue)
            let entries = try #require(try await curl.post("address/plog", #"{"flatId":"1","day":"\#(day)"}"#, token: token).data?.list)
            func uuid(_ event: String) throws -> String { try #require(entries.first { $0["event"] == .string(event) }?["uuid"]?.stringValue) }
            let bare = try uuid("1"), answered = try uuid("2"), faced = try uuid("5")
            #expect(entries.first { $0["event"] == .string("1") }?["previewType"] == .integer(0))

            let noEvent = try await curl.post("frs/like", "{}", token: token)
            // like.php's refusals all say mobile.404, in the requester's language.
            #expect(noEvent.status == 405 && noEvent.message == "Not found", "\(noEvent.text)")
            let unknown = try await curl.post("frs/like", #"{"event":"nope"}"#, token: token)
            #expect(unknown.status == 404 && unknown.message == "Not found")
            let noPicture = try await curl.post("frs/like", #"{"event":"\#(bare)"}"#, token: token, language: "ru")
            #expect(noPicture.status == 403 && noPicture.message == "Не найдено", "\(noPicture.text)")
            // A picture goes to the face server, which found no face: 406 with its message as data.
            let noFace = try await curl.post("frs/like", #"{"event":"\#(answered)"}"#, token: token)
            #expect(noFace.status == 406 && noFace.message == "Not Acceptable", "\(noFace.text)")
            #expect(noFace.data == .string("No face found in the picture"))
            let liked = try await curl.post("frs/like", #"{"event":"\#(faced)"}"#, token: token)
            #expect(liked.status == 200 && liked.text == #"{"code":200,"name":"OK","message":"OK"}"#, "\(liked.text)")
            #expect(try await curl.post("frs/listFaces", #"{"flatId":1}"#, token: token).data?.list.count == 1)

            // disLike.php's refusals say mobile.404 too.
            let nothing = try await curl.post("frs/disLike", #"{"flatId":1}"#, token: token)
            #expect(nothing.status == 403 && nothing.message == "Not found", "\(nothing.text)")
            let otherFlat = try await curl.post("frs/disLike", #"{"flatId":9,"faceId":17}"#, token: token, language: "ru")
            #expect(otherFlat.status == 403 && otherFlat.message == "Не найдено", "\(otherFlat.text)")
            let unknownEvent = try await curl.post("frs/disLike", #"{"event":"nope"}"#, token: token)
            #expect(unknownEvent.status == 404 && unknownEvent.message == "Not found", "\(unknownEvent.text)")
            #expect(try await curl.post("frs/disLike", #"{"event":"\#(faced)"}"#, token: token).status == 204)
            #expect(try await curl.post("frs/listFaces", #"{"flatId":1}"#, token: token).status == 204)
        }
    }
}

extension JSONValue {
    /// The elements of an array; none for anything else.
    fileprivate var list: [JSONValue] {
        if case .array(let items) = self { items } else { [] }
    }
}
