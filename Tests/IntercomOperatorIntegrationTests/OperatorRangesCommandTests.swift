import Foundation
import IntercomBase
import IntercomTestSupport
import Testing

/// What a camera's recording keeps, from `cctv/ranges` of the simulated operator (its camera keeps
/// about the last minute): `cameras --ranges` lists it, and an export from before it says where the
/// recording resumes (exit 65) and writes nothing.
@Suite(.serialized) struct OperatorRangesCommandTests {
    @Test func rangesAreListedAndAnExportIntoAGapSaysWhereTheRecordingResumes() async throws {
        try await SimulatorProcess.withOperator([], prefix: "intercom-operator-ranges") { _, directory, config in
            func run(_ arguments: [String], stdin: String? = nil) async throws -> (status: Int32, stdout: String, stderr: String) {
                try await IntercomBinary.run(arguments + ["--config", config.path], in: directory, stdin: stdin, timeout: .seconds(60))
            }
            #expect(try await run(["login", "--sms"], stdin: "1001").status == 0)
            let json = try await run(["cameras", "--ranges", "--json"])
            #expect(json.status == 0, "\(json)")
            guard case .array(let rows)? = JSONValue.parse(json.stdout),
                  let camera = rows.first(where: { $0["id"] == .string("home:cam:1") }) else { throw HarnessError("cameras --ranges --json: \(json)") }
            guard case .array(let pieces)? = camera["ranges"], case .integer(let from)? = pieces.first?["from"] else {
                throw HarnessError("no range of home:cam:1: \(json.stdout)")
            }
            #expect(abs(TimeInterval(from) - Date().timeIntervalSince1970) < 120, "\(json.stdout)")
            let text = try await run(["cameras", "--ranges"])
            #expect(text.status == 0 && text.stdout.contains("RECORDED"), "\(text)")

            let output = directory.file("gap.mp4")
            let gap = try await run(["export", "home:cam:1", "--from", "1h", "--to", "59m", "-o", output.path])
            #expect(gap.status == 65, "\(gap)")
            #expect(gap.stderr.contains("camera home:cam:1 has no recording at") && gap.stderr.contains("the recording resumes at"),
                    "\(gap.stderr)")
            #expect(gap.stderr.split(separator: "\n").count == 1, "\(gap.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output.path) && !FileManager.default.fileExists(atPath: output.path + ".part"))
        }
    }
}
