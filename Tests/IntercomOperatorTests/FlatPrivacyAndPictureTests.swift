import Foundation
import Testing
import IntercomBase
@testable import IntercomOperator
@testable import IntercomCLI

/// The owner's log privacy as `address/intercom` has it (server/mobile/address/intercom.php: sent to,
/// and read from, the flat's owner alone), a key's last sighting as a time, the picture URLs shown
/// masked, and the server's words for 405.
@Suite struct FlatPrivacyAndPictureTests {
    @Test func logPrivacyIsTheOwnersAndRefusedToAnotherMember() throws {
        let hide = try FlatSettingChange.parse("hidden_plog=on").get()
        #expect(hide.wireKey == "hiddenPlog" && hide.wireValue == "t")
        #expect(try FlatSettingChange.parse("disable_plog=off").get().wireKey == "disablePlog")
        let member = OperatorFlat(flatId: "7", isOwner: false)
        #expect(FlatSettingChange.ownerRefusal([hide], flat: member)?.description.hasPrefix("hidden_plog is the flat's owner's to change") == true)
        #expect(FlatSettingChange.ownerRefusal([hide], flat: OperatorFlat(flatId: "7", isOwner: true)) == nil)
        #expect(FlatSettingChange.ownerRefusal([try FlatSettingChange.parse("cms=on").get()], flat: member) == nil)

        let owners = try #require(FlatSettings(json: JSONValue.parse(#"{"CMS":"t","disablePlog":"f","hiddenPlog":"t"}"#)))
        #expect(owners.disablePlog == false && owners.hiddenPlog == true)
        let others = try #require(FlatSettings(json: JSONValue.parse(#"{"CMS":"t"}"#)))
        let text = SettingsCommand.text(others.json(operatorName: "yard", flat: member))
        #expect(text.contains("hidden_plog   (shown to the flat's owner only)"), "\(text)")
    }

    @Test func aKeysLastSightingIsALocalTime() throws {
        let key = OperatorKey(rfId: "0000000A1B2C3D", lastSeen: "1764573239")
        #expect(key.lastSeenDate == Date(timeIntervalSince1970: 1_764_573_239))
        #expect(OperatorKey(rfId: "1", lastSeen: nil).lastSeenDate == nil)
        let flat = OperatorFlat(flatId: "7", isOwner: true, keys: [key])
        let json = FlatSettings().json(operatorName: "yard", flat: flat)
        let seen = try #require(json["keys"]?.arrayValue?.first?["last_seen"]?.stringValue)
        #expect(RFC3339.date(seen) == key.lastSeenDate, "\(seen)")
        let local = LocalTime(Date(timeIntervalSince1970: 1_764_573_239))
        #expect(SettingsCommand.text(json).contains("last seen \(local.date) \(local.clock.prefix(5))"))
    }

    @Test func pictureURLsAreShownAsTheirServerOnly() {
        let url = "https://yard.example:8443/mobile/address/plogCamshot/4f7c1c2e-secret"
        #expect(PictureURL.masked(url) == "https://yard.example:8443/…")
        #expect(PictureURL.masked("not a url") == "…")
        let entry = JSONValue.object([("picture", .string(url)), ("uuid", .string("a1"))])
        #expect(PictureURL.masking("picture", in: entry, show: false)["picture"] == .string("https://yard.example:8443/…"))
        #expect(PictureURL.masking("picture", in: entry, show: true)["picture"] == .string(url))
    }

    @Test func theServersRefusalsAreSaidInItsWords() {
        let notAllowed = OperatorEnvelope.error(status: 405, body: Data(#"{"code":405,"name":"Method Not Allowed","message":"Метод не разрешен"}"#.utf8),
                                                 operatorName: "yard", context: .session)
        #expect(notAllowed.kind == .notAllowed && notAllowed.exitCode == 77)
        #expect(notAllowed.description.hasPrefix("yard: the operator does not allow this on the flat"), "\(notAllowed)")
        #expect(notAllowed.description.contains("Метод не разрешен") && !notAllowed.description.contains("rejected"))
    }
}
