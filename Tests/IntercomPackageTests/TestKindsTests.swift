import Foundation
import Testing

/// Test targets are of two kinds by name (DECISIONS.md "Unit and integration targets by name"): `make check`
/// skips `Intercom<Part>IntegrationTests` and `IntercomEndToEndTests` by that pattern and runs the rest whole.
/// SwiftPM links every test target into one binary on Linux, so what a unit target links cannot be told
/// apart; what it declares can: no simulator (GStreamer) or its RTSP server in a unit target.
@Suite struct TestKindsTests {
    static func isIntegration(_ name: String) -> Bool {
        name == "IntercomEndToEndTests" || (name.hasPrefix("Intercom") && name.hasSuffix("IntegrationTests"))
    }
    /// The screens' renderers are measured on the simulator's synthetic frame (it goes once the frame lives
    /// in IntercomImaging).
    static let allowed: [String: Set<String>] = ["IntercomTUITests": ["IntercomSimulator"]]

    static func testTargets() throws -> [PackageDescriptionDump.Target] {
        try PackageDescriptionDump.shared.get().targets.filter { $0.kind == "test" }
    }

    @Test func unitTargetsDeclareNoSimulator() throws {
        var problems: [String] = []
        for target in try Self.testTargets() where !Self.isIntegration(target.name) {
            for module in target.dependencies.intersection(["IntercomSimulator", "CGstRTSPServer"]).sorted()
            where !(Self.allowed[target.name] ?? []).contains(module) {
                problems.append("the unit target \(target.name) depends on \(module): its suite that needs it belongs in an integration target")
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The Makefile's pattern skips exactly the integration targets, so a unit suite is never left out.
    @Test func makeCheckSkipsExactlyTheIntegrationTargets() throws {
        let root = try PackageDescriptionDump.shared.get().root
        let makefile = try String(contentsOf: root.appendingPathComponent("Makefile"), encoding: .utf8)
        let line = try #require(makefile.split(separator: "\n").first { $0.hasPrefix("INTEGRATION_TARGETS = ") })
        let skip = try Regex(String(line.dropFirst("INTEGRATION_TARGETS = ".count)))
        for target in try Self.testTargets() {
            let skipped = (try? skip.firstMatch(in: target.name + ".SomeSuite/someTest()")) != nil
            #expect(skipped == Self.isIntegration(target.name), "make check and \(target.name)'s name disagree")
        }
    }
}
