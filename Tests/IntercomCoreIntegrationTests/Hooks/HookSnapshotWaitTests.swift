import Foundation
import IntercomDaemon
import IntercomCore
import Testing
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase
import IntercomImaging

/// `on_call_incoming` waits up to `[hooks] snapshot_wait_ms` for the call's first peephole
/// picture, which comes a few ms after the ring: INTERCOM_SNAPSHOT names it when it came, and
/// is absent when it did not (issue 25).
@Suite(.removesTestFolders) struct HookSnapshotWaitTests {
    // MARK: The pipeline, with the simulated panel's snapshots

    static func hook(in directory: TestDirectory, output: String) throws -> String {
        try HookScript.create("""
            #!/bin/sh
            printf '%s|%s\\n' "${INTERCOM_SNAPSHOT-absent}" "$INTERCOM_CALL" > '\(output).tmp'
            mv '\(output).tmp' '\(output)'
            """, named: "incoming.sh", in: directory)
    }

    /// Rings once through the pipeline with `snapshot_wait_ms = wait`; what the hook saw.
    static func ringWithHook(waitMs: Int) async throws -> (snapshot: String, call: String) {
        let directory = try TestDirectory(prefix: "intercom-hook-snapshot")
        let output = directory.path + "/seen.txt"
        let hook = try Self.hook(in: directory, output: output)
        let loaded = try ConfigLoader.parse(text: "[hooks]\non_call_incoming = \(hook)\nsnapshot_wait_ms = \(waitMs)\n",
                                            path: directory.path + "/config.ini",
                                            environment: ["HOME": directory.path, "XDG_RUNTIME_DIR": directory.path])
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        #expect(loaded.config.hookSnapshotWaitMs == waitMs)
        let s = try await IntercomPanelTests.setup(fps: 5)
        var config = await s.intercom.config
        config.hookSettings = loaded.config.hookSettings
        config.journal = JournalSettings(path: directory.path + "/journal")
        let pipeline = EventPipeline(intercom: s.intercom, config: config, environment: [:], logger: .silent)
        return try await withCleanup({
            await s.stop()
            await pipeline.finish()
        }) {
            let (_, incoming) = try await s.ring()
            await TestPatience.eventually(within: .seconds(10)) { FileManager.default.fileExists(atPath: output) }
            let text = try String(contentsOfFile: output, encoding: .utf8).trimmingCharacters(in: .newlines)
            let fields = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            #expect(fields.count == 2 && fields.last == incoming.id.rawValue, "\(text)")
            let snapshot = fields.first ?? ""
            if snapshot != "absent" {
                // Read while the journal is still there.
                let jpeg = try #require(FileManager.default.contents(atPath: snapshot), "\(snapshot)")
                #expect((try? JPEG.size(of: jpeg)) != nil)
            }
            return (snapshot, fields.last ?? "")
        }
    }

    /// The longest wait the key allows: the picture usually comes ~10 ms after the ring, but a
    /// loaded test machine may take longer than the default 300 ms to fetch and decode it.
    @Test func incomingHookGetsTheFirstPicture() async throws {
        let seen = try await Self.ringWithHook(waitMs: 5000)
        #expect(seen.snapshot.hasSuffix("-ring.jpg"), "\(seen)")
    }

    @Test func noWaitRunsAtOnceWithoutThePicture() async throws {
        let seen = try await Self.ringWithHook(waitMs: 0)
        #expect(seen.snapshot == "absent", "\(seen)")
    }
}
