import Foundation
import Testing
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import IntercomDaemon
import IntercomOperator
import IntercomPhone
import IntercomPhoneTestSupport
import IntercomTestSupport

/// The host on the engine's own parts (journal, hooks, socket) with a phone that cannot start:
/// the start fails with the phone's error and the pipeline, socket and journal lock it had made
/// are taken down (the pipeline reads the bus to its end, which the engine never started).
@Suite(.removesTestFolders) struct EngineHostPartsTests {
    struct PortTaken: Error {}

    @Test func aPhoneThatCannotStartLeavesNoSocketAndAFinishedPipeline() async throws {
        let directory = try TestDirectory(prefix: "intercom-host")
        let socket = directory.path + "/control.sock"
        let config = IntercomConfig(daemon: DaemonSettings(socketPath: socket))
        let services = IntercomServices(startPhone: { _, _ in throw PortTaken() },
                                        panel: { _ in throw PortTaken() },
                                        operatorClient: { config, _, _ in FakeOperator().client(config) },
                                        video: FakeVideo(), clock: ManualClock())
        var settings = PhoneSettings(config: config, environment: [:])
        settings.dataDirectory = directory.path + "/phone"
        let intercom = Intercom(config: config, phoneSettings: settings, logger: .silent,
                                operatorTokens: OperatorTokenStore(directory: directory.path + "/operators"),
                                services: services)
        let environment = ["XDG_DATA_HOME": directory.path + "/data", "XDG_STATE_HOME": directory.path + "/state",
                           "XDG_RUNTIME_DIR": directory.path, "HOME": directory.path]
        let parts = EngineHostParts(intercom: intercom, options: .init(environment: environment, logger: .silent,
                                                                       mqtt: { _, _ in nil }))
        let host = IntercomHost([.pipeline, .mqtt, .controlSocket, .engine, .serving], parts: parts)
        await #expect(throws: PortTaken.self) { try await host.start() }
        #expect(await host.running.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: socket))
        // The journal's writer lock went with the pipeline: a second host records the journal.
        let again = EngineHostParts(intercom: intercom, options: .init(environment: environment, logger: .silent,
                                                                       mqtt: { _, _ in nil }))
        try await again.start(.pipeline)
        #expect(await again.pipeline?.recordsJournal == true)
        await again.stop(.pipeline)
    }
}
