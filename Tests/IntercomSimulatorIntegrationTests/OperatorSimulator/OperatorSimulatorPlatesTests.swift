import Foundation
import IntercomTestSupport
import IntercomBase
@testable import IntercomSimulator
import IntercomPhoneTestSupport
import Testing

/// `lprs/listNumbers`, `addNumber` and `removeNumber` answer as the PHP does (server/mobile/lprs/*.php):
/// the flat checks, the number's checks, 204 for an empty list and for every change.
@Suite(.removesTestFolders) struct OperatorSimulatorPlatesTests {
    @Test func platesFollowThePHP() async throws {
        try await withOperator { simulator, curl in
            let token = try await curl.login(simulator)
            let empty = try await curl.post("lprs/listNumbers", #"{"flatId":1}"#, token: token)
            #expect(empty.status == 204 && empty.body.isEmpty)
            #expect(try await curl.post("lprs/listNumbers", "{}", token: token).status == 422)
            let foreign = try await curl.post("lprs/listNumbers", #"{"flatId":7}"#, token: token)
            #expect(foreign.status == 404 && foreign.message == "Not found")
            #expect(try await curl.post("lprs/addNumber", #"{"flatId":1}"#, token: token).status == 422)
            #expect(try await curl.post("lprs/addNumber", #"{"flatId":1,"number":"0"}"#, token: token).status == 422)
            let invalid = try await curl.post("lprs/addNumber", #"{"flatId":1,"number":"A12BC77"}"#, token: token)
            #expect(invalid.status == 422 && invalid.message == "Invalid license plate number")
            // The texts come from the language file the request's Accept-Language names (English without one).
            let russian = try await curl.post("lprs/addNumber", #"{"flatId":1,"number":"A12BC77"}"#, token: token, language: "ru-RU,ru;q=0.9")
            #expect(russian.status == 422 && russian.message == "Некорректный автомобильный номер")
            let german = try await curl.post("lprs/listNumbers", #"{"flatId":7}"#, token: token, language: "de")
            #expect(german.status == 404 && german.message == "Not found")

            // Trimmed, upper case, Cyrillic made Latin; a second add of the same plate keeps one.
            let added = try await curl.post("lprs/addNumber", #"{"flatId":"1","number":" а123вс777 "}"#, token: token)
            #expect(added.status == 204 && added.body.isEmpty)
            #expect(try await curl.post("lprs/addNumber", #"{"flatId":1,"number":"A123BC777"}"#, token: token).status == 204)
            #expect(try await curl.post("lprs/addNumber", #"{"flatId":1,"number":"K001MP77"}"#, token: token).status == 204)
            let listed = try await curl.post("lprs/listNumbers", #"{"flatId":1}"#, token: token)
            #expect(listed.status == 200)
            #expect(listed.data == .array([.string("A123BC777"), .string("K001MP77")]), "\(listed.text)")

            // Removing is checked the same way, and a plate the flat does not have is 204 too.
            #expect(try await curl.post("lprs/removeNumber", #"{"flatId":1,"number":"bad"}"#, token: token).status == 422)
            #expect(try await curl.post("lprs/removeNumber", #"{"flatId":1,"number":"B456CE99"}"#, token: token).status == 204)
            #expect(try await curl.post("lprs/removeNumber", #"{"flatId":1,"number":"а123вс777"}"#, token: token).status == 204)
            #expect(simulator.plates() == ["K001MP77"])
            #expect(try await curl.post("lprs/listNumbers", #"{"flatId":1}"#).status == 403)
        }
    }

    @Test func onlyRussianPlatesAreValid() {
        for plate in ["A123BC77", "A123BC777", "Y000XX99"] { #expect(OperatorService.isValidPlate(plate), "\(plate)") }
        for plate in ["A123BC7", "A123BC7777", "Ж123BC77", "1123BC77", "A12ABC77", "a123bc77", ""] {
            #expect(!OperatorService.isValidPlate(plate), "\(plate)")
        }
        #expect(OperatorService.latinPlate("аВеКмНоРсТуХ") == "ABEKMHOPCTYX")
        #expect(OperatorText.isRussian("ru") && OperatorText.isRussian("ru-RU,en;q=0.5") && OperatorText.isRussian(" ru ;q=1"))
        #expect(!OperatorText.isRussian("") && !OperatorText.isRussian("en-US,ru") && !OperatorText.isRussian("rus"))
    }
}
