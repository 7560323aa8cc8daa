import Foundation
import IntercomTestSupport
import IntercomBase
@testable import IntercomSimulator
import IntercomPhoneTestSupport
import Testing

/// Addresses, settings, sharing, doors that reach a simulated Beward panel, and the event log.
@Suite(.removesTestFolders) struct OperatorSimulatorAddressTests {
    @Test func addressesAndSettingsHaveTheServersTypes() async throws {
        try await withOperator { simulator, curl in
            let token = try await curl.login(simulator)
            let list = try await curl.post("address/getAddressList", token: token)
            #expect(list.status == 200)
            guard case .array(let houses)? = list.data, let house = houses.first else {
                Issue.record("no houses: \(list.text)")
                return
            }
            #expect(house["houseId"] == .string("1"))
            #expect(house["hasPlog"] == .string("t"))
            #expect(house["cctv"] == .integer(1))
            #expect(house["flatId"] == nil)
            guard case .array(let doors)? = house["doors"] else {
                Issue.record("no doors: \(list.text)")
                return
            }
            #expect(doors.count == 2)
            #expect(doors.first?["domophoneId"] == .string("1"))
            #expect(doors.first?["doorId"] == .integer(0))
            #expect(doors.first?["icon"] == .string("entrance"))
            #expect(doors.last?["doorId"] == .integer(1))

            let settings = try await curl.post("address/getSettingsList", token: token)
            let flat = try #require(settings.data.flatMap { if case .array(let a) = $0 { a.first } else { nil } })
            #expect(flat["flatId"] == .string("1"))
            #expect(flat["flatOwner"] == .string("t"))
            #expect(flat["hasGates"] == .string("f"))
            // The flat's other subscribers: the caller is never among them.
            #expect(flat["roommates"]?.arrayCount == 0)

            let ext = try await curl.post("ext/options", token: token)
            #expect(ext.data?["timeZone"] == .string("Europe/Moscow"))
        }
    }

    @Test func flatSettingsRoundTripAsStrings() async throws {
        try await withOperator { simulator, curl in
            let token = try await curl.login(simulator)
            let read = try await curl.post("address/intercom", #"{"flatId":"1"}"#, token: token)
            #expect(read.text.contains(#""allowDoorCode":"t","doorCode":"12345","CMS":"t","VoIP":"t","autoOpen":"1970-01-01 00:00:00","whiteRabbit":"0","disablePlog":"f","hiddenPlog":"f""#),
                    "\(read.text)")
            let set = try await curl.post("address/intercom",
                #"{"flatId":"1","settings":{"CMS":"f","VoIP":"f","whiteRabbit":"5","autoOpen":"2030-01-02 03:04:05"}}"#, token: token)
            #expect(set.data?["CMS"] == .string("f"))
            #expect(set.data?["whiteRabbit"] == .string("5"))
            let again = try await curl.post("address/intercom", #"{"flatId":"1"}"#, token: token)
            #expect(again.data?["CMS"] == .string("f"))
            #expect(again.data?["VoIP"] == .string("f"))
            #expect(again.data?["autoOpen"] == .string("2030-01-02 03:04:05"))
            // Minutes the server does not offer become 0.
            let odd = try await curl.post("address/intercom", #"{"flatId":"1","settings":{"whiteRabbit":"4"}}"#, token: token)
            #expect(odd.data?["whiteRabbit"] == .string("0"))
            // VoIP is per device: another device still has it on.
            let other = try await curl.login(simulator, device: "device-2")
            #expect(try await curl.post("address/intercom", #"{"flatId":"1"}"#, token: other).data?["VoIP"] == .string("t"))
            #expect(try await curl.post("address/intercom", #"{"flatId":"2"}"#, token: token).status == 404)
        }
    }

    /// `address/access` as access.php: only `strtotime(expire) < time()` in PHP's zone removes;
    /// adding ignores `expire`; the roommates list leaves the caller out and says 3001 for all.
    @Test func sharingFollowsThePHP() async throws {
        try await withOperator { simulator, curl in
            let token = try await curl.login(simulator)
            // An end time is not kept: the guest is listed until 3001.
            let shared = try await curl.post("address/access",
                #"{"flatId":"1","guestPhone":"79001112233","expire":"2031-01-01 00:00:00"}"#, token: token)
            #expect(shared.status == 204)
            #expect(shared.body.isEmpty)
            let duplicate = try await curl.post("address/access", #"{"flatId":"1","guestPhone":"79001112233"}"#, token: token)
            #expect(duplicate.status == 422)
            #expect(duplicate.message == "Operation failed. Is the phone already in the list?")
            var roommates = try await curl.post("address/getSettingsList", token: token).data?.first?["roommates"]
            #expect(roommates?.arrayCount == 1)
            #expect(roommates?.first?["phone"] == .string("79001112233"))
            #expect(roommates?.first?["expire"] == .string("3001-01-01 00:00:00"))
            #expect(roommates?.first?["type"] == .string("inner"))
            // On a UTC PHP 1970-01-01 00:00:00 is strtotime 0, falsy, so now: not past, so it adds (422 here).
            let epoch = try await curl.post("address/access",
                #"{"flatId":"1","guestPhone":"79001112233","expire":"1970-01-01 00:00:00"}"#, token: token)
            #expect(epoch.status == 422)
            #expect(simulator.roommates == ["79001112233"])
            // A time already past in PHP's zone removes.
            let past = OperatorClock(timeZone: simulator.options.phpTimeZone).dateTime(Date(timeIntervalSinceNow: -3600))
            let removed = try await curl.post("address/access",
                #"{"flatId":"1","guestPhone":"79001112233","expire":"\#(past)"}"#, token: token)
            #expect(removed.status == 204)
            roommates = try await curl.post("address/getSettingsList", token: token).data?.first?["roommates"]
            #expect(roommates?.arrayCount == 0)
            // An epoch time with no guest left adds the guest again, and tells them in the requester's language.
            #expect(try await curl.post("address/access", #"{"flatId":"1","guestPhone":"79001112233","expire":"1970-01-01 00:00:00"}"#,
                                        token: token).status == 204)
            #expect(simulator.messages.count == 2)
            #expect(try await curl.post("address/access", #"{"flatId":"0","guestPhone":"79001112233"}"#, token: token).status == 422)
        }
    }

    @Test func resetCodeAnswersANumberAndTheFlatHasIt() async throws {
        try await withOperator { simulator, curl in
            let token = try await curl.login(simulator)
            let reset = try await curl.post("address/resetCode", #"{"flatId":1}"#, token: token)
            guard case .integer(let code)? = reset.data?["code"] else {
                Issue.record("no numeric code: \(reset.text)")
                return
            }
            let read = try await curl.post("address/intercom", #"{"flatId":"1"}"#, token: token)
            #expect(read.data?["doorCode"] == .string(String(code)))
            #expect(read.data?["FRSDisabled"] == nil)
        }
    }

    /// FRSDisabled and LPRSDisabled are computed (never read from a request); recognitions log
    /// the face's id and the plate's number in `detailX` as the server's plog.php does.
    @Test func recognitionIsShownNotSetAndLogged() async throws {
        var options = SimulatedOperatorOptions()
        options.recognition = true
        try await withOperator(options) { simulator, curl in
            let token = try await curl.login(simulator)
            let set = try await curl.post("address/intercom", #"{"flatId":"1","settings":{"FRSDisabled":"t"}}"#, token: token)
            #expect(set.data?["FRSDisabled"] == .string("f"))
            #expect(set.data?["LPRSDisabled"] == .string("f"))
            simulator.recordRecognition(face: 17, plate: "A123BC")
            let today = OperatorClock(timeZone: options.phpTimeZone).day(Date())
            let log = try await curl.post("address/plog", #"{"flatId":"1","day":"\#(today)"}"#, token: token)
            #expect(log.text.contains(#""event":"5""#) && log.text.contains(#""faceId":"17""#), "\(log.text)")
            #expect(log.text.contains(#""plateNumber":"A123BC""#), "\(log.text)")
            // camMap's frs is "t"/"f" as the PHP writes it (the entrance camera has a recognition stream).
            let map = try await curl.post("cctv/camMap", token: token)
            #expect(map.data.flatMap { if case .array(let items) = $0 { items.first?["frs"] } else { nil } } == .string("t"), "\(map.text)")
        }
    }

    @Test func openDoorReachesThePanelWithBasicAndTheLogGrows() async throws {
        let panel = SimulatedPanelHTTPServer(options: SimulatedPanelOptions(user: "admin", password: "door-secret", auth: .basic))
        try panel.start()
        var options = SimulatedOperatorOptions(phpTimeZone: try #require(TimeZone(identifier: "Asia/Vladivostok")))
        options.panel = OperatorPanelTarget(url: panel.baseURL, user: "admin", password: "door-secret")
        try await withCleanup({ panel.stop() }) {
            try await withOperator(options) { simulator, curl in
                let token = try await curl.login(simulator)
                let opened = try await curl.post("address/openDoor", #"{"domophoneId":"1","doorId":0}"#, token: token)
                #expect(opened.status == 204)
                #expect(opened.body.isEmpty)
                // The reply comes after the panel was asked, as the real server's driver does it.
                #expect(panel.requestCount("intercom_cgi?action=maindoor") == 1)
                #expect(panel.requestCount("config_cgi?action=forcesave") == 1)
                #expect(panel.requestCount("authorization:basic") == 2)
                #expect(panel.requestCount("401") == 0)

                #expect(try await curl.post("address/openDoor", #"{"domophoneId":"1","doorId":1}"#, token: token).status == 204)
                #expect(panel.requestCount("intercom_cgi?action=altdoor") == 1)
                let foreign = try await curl.post("address/openDoor", #"{"domophoneId":"2","doorId":0}"#, token: token)
                #expect(foreign.status == 404)
                #expect(foreign.message == "The service is unavailable (the contract is blocked or not paid)")
                #expect(panel.requestCount("intercom_cgi") == 2)

                let today = OperatorClock(timeZone: options.phpTimeZone).day(Date())
                let days = try await curl.post("address/plogDays", #"{"flatId":"1"}"#, token: token)
                #expect(days.text.contains(#"{"day":"\#(today)","events":2}"#), "\(days.text)")
                let log = try await curl.post("address/plog", #"{"flatId":"1","day":"\#(today)"}"#, token: token)
                guard case .array(let entries)? = log.data, let newest = entries.first else {
                    Issue.record("no log: \(log.text)")
                    return
                }
                #expect(entries.count == 2)
                #expect(newest["event"] == .string("4"))
                #expect(newest["objectMechanizma"] == .string("1"))
                #expect(newest["houseId"] == .integer(1))
                #expect(newest["detailX"]?["phone"] == .string(simulator.options.testPhone))
                // PHP's zone (not ext/options'): within a few seconds of now in that zone.
                let date = try #require(newest["date"]?.stringValue)
                let parsed = try #require(OperatorClock(timeZone: options.phpTimeZone).parse(date), "date \(date)")
                #expect(abs(parsed.timeIntervalSinceNow) < 30, "date \(date) in \(options.phpTimeZone.identifier)")

                let preview = try #require(newest["preview"]?.stringValue)
                let picture = try await curl.get(preview)
                #expect(picture.status == 200)
                #expect(picture.contentType == "image/jpeg")
                #expect(picture.body.prefix(2) == Data([0xFF, 0xD8]))
                #expect(try await curl.get("\(simulator.baseURL)/address/plogCamshot/\(UUID())").status == 404)

                // Only the other day's filter: unanswered calls, none yet, then one.
                #expect(try await curl.post("address/plogDays", #"{"flatId":"1","events":"1"}"#, token: token).data == nil)
                simulator.recordCall(answered: false)
                #expect(try await curl.post("address/plogDays", #"{"flatId":"1","events":"1,2"}"#, token: token)
                    .text.contains(#""events":1"#))
            }
        }
    }

    @Test func openDoorIsStill204WithThePanelDown() async throws {
        let nobody = try FreePort.udpAndTCP()
        var options = SimulatedOperatorOptions()
        options.panel = OperatorPanelTarget(url: "http://127.0.0.1:\(nobody)", password: "admin")
        try await withOperator(options) { simulator, curl in
            let token = try await curl.login(simulator)
            let opened = try await curl.post("address/openDoor", #"{"domophoneId":"1","doorId":0}"#, token: token)
            #expect(opened.status == 204)
            #expect(opened.body.isEmpty)
            #expect(simulator.logCount == 1)
        }
    }

    @Test func aBlockedFlatRefusesDoorsAndTheLog() async throws {
        var options = SimulatedOperatorOptions()
        options.blocked = true
        try await withOperator(options) { simulator, curl in
            let token = try await curl.login(simulator)
            let list = try await curl.post("address/getAddressList", token: token)
            #expect(list.text.contains(#""blocked":"The service is unavailable"#), "\(list.text)")
            #expect(try await curl.post("address/openDoor", #"{"domophoneId":"1","doorId":0}"#, token: token).status == 404)
            #expect(try await curl.post("address/plogDays", #"{"flatId":"1"}"#, token: token).status == 402)
            #expect(simulator.logCount == 0)
        }
    }

    /// An administrator's block is 403 at the log where non-payment is 402 (plogDays.php, plog.php:
    /// `autoBlock` 402, `adminBlock` 403); doors 404 either way (openDoor.php).
    @Test func anAdminBlockIs403AtTheLog() async throws {
        var options = SimulatedOperatorOptions()
        options.adminBlocked = true
        try await withOperator(options) { simulator, curl in
            let token = try await curl.login(simulator)
            #expect(try await curl.post("address/openDoor", #"{"domophoneId":"1","doorId":0}"#, token: token).status == 404)
            #expect(try await curl.post("address/plogDays", #"{"flatId":"1"}"#, token: token).status == 403)
            #expect(try await curl.post("address/plog", #"{"flatId":"1","day":"2026-12-01"}"#, token: token).status == 403)
        }
    }
}

fileprivate extension JSONValue {
    var arrayCount: Int? { if case .array(let items) = self { items.count } else { nil } }
    var first: JSONValue? { if case .array(let items) = self { items.first } else { nil } }
}
