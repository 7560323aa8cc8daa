import Foundation
import Testing

/// The bounds issue 39 set on the house, kept by a test so a feature cannot quietly undo them: the engine's
/// coordinator stays a router (the file declaring `actor Intercom` and every file extending it, ≤ 800 lines,
/// ≤ 20 stored properties; a feature's state goes into a part and its code into a flow), DECISIONS.md holds
/// the decisions in force (≤ 1 200 lines), and the tests wait by polling, not sleeping (≤ 80 real sleeps).
@Suite struct HouseBoundsTests {
    static let coordinatorLines = 800, coordinatorStoredProperties = 20, decisionsLines = 1_200, realSleeps = 80

    static func files(under folder: String, root: URL) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }
    }

    static func text(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }

    static func lines(_ text: String) -> Int { text.split(separator: "\n", omittingEmptySubsequences: false).count - 1 }

    @Test func theCoordinatorStaysARouter() throws {
        let root = try PackageDescriptionDump.shared.get().root
        let declares = try Regex(#"(extension|actor) Intercom\b"#)
        let files = Self.files(under: "Sources/IntercomCore", root: root).filter { Self.text($0).contains(declares) }
        let total = files.map { Self.lines(Self.text($0)) }.reduce(0, +)
        #expect(total <= Self.coordinatorLines, "the coordinator is \(total) lines over \(files.count) files (at most \(Self.coordinatorLines)): move a feature's code into a flow taking `isolated Intercom`")
        let actor = try #require(files.map(Self.text).first { $0.contains("public actor Intercom ") })
        // The actor's own body: its members are indented by four spaces; a stored property is a
        // `let`/`var` with no body of its own (computed properties end their line with `{ … }`).
        let stored = try Regex(#"^    (?:public |package |private |internal |nonisolated |\w+\(set\) )*(?:let|var) \w+[^{]*$"#)
        let body = actor.split(separator: "\n").prefix { $0 != "}" }
        let count = body.filter { $0.wholeMatch(of: stored) != nil }.count
        #expect(count <= Self.coordinatorStoredProperties, "actor Intercom has \(count) stored properties (at most \(Self.coordinatorStoredProperties)): give the new state to a part")
    }

    @Test func decisionsHoldWhatIsInForce() throws {
        let root = try PackageDescriptionDump.shared.get().root
        let lines = Self.lines(Self.text(root.appendingPathComponent("DECISIONS.md")))
        #expect(lines <= Self.decisionsLines, "DECISIONS.md has \(lines) lines (at most \(Self.decisionsLines)): drop what is superseded (git keeps it), trim words, not facts")
    }

    @Test func testsWaitByPollingNotSleeping() throws {
        let root = try PackageDescriptionDump.shared.get().root
        let sleep = try Regex(#"Thread\.sleep|usleep|Task\.sleep"#)
        let count = Self.files(under: "Tests", root: root).map { Self.text($0).matches(of: sleep).count }.reduce(0, +)
        #expect(count <= Self.realSleeps, "the tests sleep \(count) times (at most \(Self.realSleeps)): wait with TestPatience.eventually/poll/within")
    }
}
