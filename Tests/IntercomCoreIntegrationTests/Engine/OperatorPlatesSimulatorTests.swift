import Foundation
import IntercomBase
import IntercomOperator
import IntercomSimulator
import IntercomTestSupport
import Testing

/// Licence plates as SmartYard-Server's `lprs/*` keeps them, against the simulated operator over
/// real HTTP: none at first (204), a plate added (Cyrillic letters stored as Latin), an invalid one
/// refused (422 with the server's text), a duplicate kept once, a plate removed; the `intercom
/// plates` command lists, adds and removes the same way and reads each change back.
@Suite struct OperatorPlatesSimulatorTests {
    @Test func platesAreAddedListedAndRemoved() async throws {
        try await withSimulatedLogin { simulator, client in
            let flat = try #require(try await client.flats().first)
            #expect(try await client.plates(flatId: flat.flatId).isEmpty)

            try await client.addPlate(flatId: flat.flatId, number: " а123вс77 ")
            try await client.addPlate(flatId: flat.flatId, number: "A123BC77")
            #expect(try await client.plates(flatId: flat.flatId) == ["A123BC77"])
            let refused = await #expect(throws: OperatorError.self) {
                try await client.addPlate(flatId: flat.flatId, number: "XYZ")
            }
            #expect(refused?.kind == .rejected(status: 422), "\(String(describing: refused))")
            // In the language LANG names (the server has English and Russian texts).
            #expect(["Invalid license plate number", "Некорректный автомобильный номер"].contains(refused?.serverText ?? ""))
            let foreign = await #expect(throws: OperatorError.self) { try await client.plates(flatId: "99") }
            #expect(foreign?.kind == .notFound, "\(String(describing: foreign))")

            let directory = try TestDirectory(prefix: "intercom-plates")
            let config = try IntercomBinary.writeConfig("[operator home]\napi = \(simulator.baseURL)\nphone = 79123456781\nlanguage = en\n", in: directory)
            func intercom(_ arguments: [String], stdin: String? = nil) async throws -> (status: Int32, stdout: String, stderr: String) {
                try await IntercomBinary.run(arguments + ["--config", config.path], in: directory, stdin: stdin, timeout: .seconds(30))
            }
            #expect(try await intercom(["login", "--sms"], stdin: "1001").status == 0)
            let added = try await intercom(["plates", "--add", "о 777 оо 777"])
            #expect(added.status == 0 && added.stdout.contains("plate O777OO777 added"), "\(added)")
            #expect(simulator.plates() == ["A123BC77", "O777OO777"])
            let listed = try await intercom(["plates"])
            #expect(listed.status == 0 && listed.stdout.contains("plate A123BC77") && listed.stdout.contains("plate O777OO777"), "\(listed)")
            let json = try await intercom(["plates", "--json"])
            let rows: [JSONValue] = if case .array(let items)? = JSONValue.parse(json.stdout) { items } else { [] }
            #expect(rows.compactMap { $0["plate"]?.stringValue } == ["A123BC77", "O777OO777"], "\(json)")
            let removed = try await intercom(["plates", "--remove", "A123BC77"])
            #expect(removed.status == 0 && removed.stdout.contains("plate A123BC77 removed"), "\(removed)")
            #expect(simulator.plates() == ["O777OO777"])
            let absent = try await intercom(["plates", "--remove", "B456CE99"])
            #expect(absent.status == 0 && absent.stdout.contains("not listed"), "\(absent)")

            // The server's refusal is one line with its text and exit 65; text that is no plate at all never leaves.
            let invalid = try await intercom(["plates", "--add", "AB12"])
            #expect(invalid.status == 65 && invalid.stderr.contains("Invalid license plate number"), "\(invalid)")
            #expect(invalid.stderr.split(separator: "\n").count == 1, "\(invalid)")
            let before = simulator.requestCount("lprs/addNumber")
            let bad = try await intercom(["plates", "--add", "A1;23"])
            #expect(bad.status == 64 && bad.stderr.contains("licence plate"), "\(bad)")
            #expect(try await intercom(["plates", "--add", "A123BC77", "--remove", "A123BC77"]).status == 64)
            #expect(simulator.requestCount("lprs/addNumber") == before)
        }
    }
}
