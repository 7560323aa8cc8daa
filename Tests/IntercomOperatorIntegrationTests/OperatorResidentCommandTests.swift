import Foundation
import IntercomBase
import IntercomTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The `intercom` binary against `intercom simulate-operator` as the server's PHP rules (issue 42):
/// logged in as the flat's resident (`--resident`: not its owner), `share --until` and `share
/// --remove` of another phone are refused before asking, a plain share says only the owner can
/// undo it, and a phone already listed is said to be listed; an event-log entry names the camera
/// that saw it (plog's `cameraId`), not the panel's first entrance's.
extension OperatorFidelityCommandTests {
    static let resident = "79123456789"

    @Test func aResidentSharesButOnlyTheOwnerTakesBack() async throws {
        let config = "[operator home]\napi = API\nphone = \(Self.resident)\n"
        try await withSimulator(["--no-camera", "--resident", Self.resident], config: config, prefix: "intercom-operator-resident") { _, run in
            let login = try await run(["login", "--sms"], "1002")
            #expect(login.status == 0, "\(login)")
            let list = try await run(["share", "--list"], nil)
            #expect(list.status == 0 && list.stdout.contains("+79123456781") && list.stdout.contains("owner"), "\(list)")

            let until = try await run(["share", "79001112233", "--until", "2h"], nil)
            #expect(until.status == 77, "\(until)")
            #expect(until.stderr.contains("home: only the flat's owner can take a guest back, so --until cannot end +79001112233's access"),
                    "\(until.stderr)")
            #expect(until.stderr.split(separator: "\n").count == 1, "\(until.stderr)")
            #expect(try await run(["share", "--list"], nil).stdout.contains("79001112233") == false)

            let shared = try await run(["share", "79001112233"], nil)
            #expect(shared.status == 0 && shared.stdout.contains("+79001112233 has access"), "\(shared)")
            #expect(shared.stderr.contains("only the flat's owner can take +79001112233's access back"), "\(shared.stderr)")

            // Listed now: said so, nothing sent (the server would answer 422 after messaging the guest).
            let again = try await run(["share", "79001112233"], nil)
            #expect(again.status == 0 && again.stdout.contains("+79001112233 is already listed for flat 1; nothing sent"), "\(again)")

            let remove = try await run(["share", "79001112233", "--remove"], nil)
            #expect(remove.status == 77 && remove.stderr.contains("only the flat's owner can take a guest back"), "\(remove)")
            #expect(try await run(["share", "--list"], nil).stdout.contains("+79001112233"))
        }
    }

    @Test func anEntryNamesTheCameraThatSawIt() async throws {
        let config = "[operator home]\napi = API\nphone = 79123456781\n"
        try await withSimulator(["--no-camera", "--entrances", "2"], config: config, prefix: "intercom-operator-entry-camera") { simulator, run in
            #expect(try await run(["login", "--sms"], "1001").status == 0)
            simulator.signal(SIGUSR2)  // a call from the panel's second entrance (entrance and camera 102)
            try await simulator.waitForOutput(containing: "call logged", timeout: .seconds(10))
            let log = try await run(["log", "--json"], nil)
            #expect(log.status == 0, "\(log)")
            let missed = log.stdout.split(separator: "\n").compactMap { JSONValue.parse(String($0)) }
                .first { $0["event"]?.stringValue == "call_missed" }
            #expect(missed?["camera"] == .string("home:cam:102") && missed?["entrance_id"] == .string("102"), "\(log.stdout)")
            #expect(missed?["detail"]?["domophone"] == .string("1"), "\(log.stdout)")
        }
    }
}
