import Foundation
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import IntercomTestSupport
import Testing

/// What a screen's keys read that `ctl` could not (issue 23): the door list and the journal, as
/// engine commands (`doors`, `journal`) the socket spells both ways; and door ids read once
/// (`DoorTarget`) wherever a door is opened. On fakes; the real binary in DaemonCtlQueryTests.
@Suite struct FrontEndQueryTests {
    @Test func doorsListThePanelsThenTheOperatorsAsStatusDoes() async throws {
        try await OperatorPolicyTests.rig { rig throws in
            let doors = try await rig.intercom.execute(.doors)
            #expect(doors == (await rig.intercom.status)["doors"], "\(doors.encoded)")
            guard case .array(let list) = doors else { Issue.record("not a list: \(doors.encoded)"); return }
            #expect(list.compactMap { $0["id"]?.stringValue } == ["home:1:0", "home:1:1"], "\(doors.encoded)")
            #expect(list.first?["operator"]?.stringValue == "home" && list.first?["address"]?.stringValue == "Main st 1")
        }
    }

    @Test func theJournalIsTheDaemonsAndReadsBackAsEntries() async throws {
        let (journal, directory) = try MissedCallQueueTests.journal()
        defer { withExtendedLifetime(directory) {} }
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig throws in
            // A screen's own engine keeps no journal: it says where the journal is.
            let refused = await #expect(throws: IntercomError.self) { try await rig.intercom.execute(.journal(JournalQuery(limit: 5))) }
            #expect(refused?.description.contains("intercom log") == true, "\(String(describing: refused))")
            rig.intercom.useJournal(journal)
            let all = try await rig.intercom.execute(.journal(JournalQuery(limit: 20)))
            guard case .array(let items) = all else { Issue.record("not a list: \(all.encoded)"); return }
            #expect(all.arrayIDs == [1, 2, 3], "\(all.encoded)")
            // Every entry reads back whole (what `ctl journal` lays out as `log` does): nothing its JSON says is lost.
            let decoded = items.compactMap(JournalEntry.init(json:))
            #expect(decoded.map(\.json) == items, "\(all.encoded)")
            #expect(decoded.map(\.outcomeText) == (try journal.entries(JournalQuery(limit: 20))).map(\.outcomeText))
            let queue = try await rig.intercom.execute(.journal(JournalQuery(limit: 20, unhandledOnly: true)))
            #expect(queue.arrayIDs == [1, 3], "\(queue.encoded)")
            let newest = try await rig.intercom.execute(.journal(JournalQuery(limit: 1)))
            #expect(newest.arrayIDs == [3], "\(newest.encoded)")
        }
    }

    @Test func aPanelDoorIDOpensThatDoorAndAPanelsOwnNameWins() async throws {
        let odd = PanelConfig(name: "home:1:0", url: "http://10.0.0.6", match: [.uriPrefix("sip:100002@")])
        try await EngineRig.run(panels: [CallPolicyTests.entrance(), odd]) { rig throws in
            let reply = try await rig.intercom.execute(.open(panel: "Entrance:alt", door: .main, by: .ctl))
            #expect(reply["panel"]?.stringValue == "entrance" && reply["door"]?.stringValue == "alt", "\(reply.encoded)")
            #expect(rig.panel("entrance").doorRequests.all == [.alt])
            // No operator named home: `home:1:0` is the panel of that name, its main door.
            _ = try await rig.intercom.execute(.open(panel: "home:1:0", door: .main, by: .ctl))
            #expect(rig.panel("home:1:0").doorRequests.all == [.main])
            let unknown = await #expect(throws: IntercomError.self) {
                try await rig.intercom.execute(.open(panel: "entrance:attic", door: .main, by: .ctl))
            }
            #expect(unknown?.description.contains("no panel 'entrance:attic'") == true, "\(String(describing: unknown))")
        }
    }

    @Test func theSocketSpellsDoorsAndJournalBothWays() throws {
        for command in [IntercomCommand.doors, .journal(JournalQuery(panel: "entrance", limit: 7, unhandledOnly: true)),
                        .journal(JournalQuery(missedOnly: true, limit: 20))] {
            let line = ControlRequest(id: .integer(1), action: .command(command)).json.encoded
            #expect(try ControlRequest.parse(line).get().action == .command(command), "\(line)")
        }
        #expect(try ControlRequest.parse(#"{"command":"journal"}"#).get().action == .command(.journal(JournalQuery(limit: 20))))
        for bad in [#"{"command":"journal","limit":0}"#, #"{"command":"journal","limit":"5"}"#, #"{"command":"journal","limit":5000}"#,
                    #"{"command":"journal","unhandled":"yes"}"#, #"{"command":"journal","panel":3}"#] {
            guard case .failure(let failure) = ControlRequest.parse(bad) else { Issue.record("accepted \(bad)"); continue }
            #expect(["limit", "unhandled", "panel"].contains { failure.message.contains("\"\($0)\"") }, "\(failure.message)")
        }
    }
}

private extension JSONValue {
    /// The `id`s of a list of journal entries.
    var arrayIDs: [Int] {
        guard case .array(let items) = self else { return [] }
        return items.compactMap { if case .integer(let n)? = $0["id"] { n } else { nil } }
    }
}
