import Testing
import IntercomDaemon

/// The host's order on fake stages: up in the list's order, down in reverse, and a start that
/// fails takes down what it made and what came before it, nothing after.
@Suite struct IntercomHostTests {
    struct Refused: Error, Equatable {}

    /// Records each start and stop; `failing` throws when started.
    actor FakeParts: HostParts {
        var log: [String] = []
        let failing: HostStage?

        init(failing: HostStage? = nil) { self.failing = failing }

        func start(_ stage: HostStage) async throws {
            log.append("start \(stage.rawValue)")
            if stage == failing { throw Refused() }
        }

        func stop(_ stage: HostStage) async { log.append("stop \(stage.rawValue)") }
    }

    @Test func theDaemonStartsInOrderAndStopsInReverse() async throws {
        let parts = FakeParts()
        let host = IntercomHost(HostStage.daemon, parts: parts)
        try await host.start()
        #expect(await host.running == HostStage.daemon)
        await host.stop()
        let names = HostStage.daemon.map(\.rawValue)
        #expect(await parts.log == names.map { "start \($0)" } + names.reversed().map { "stop \($0)" })
        #expect(await host.running.isEmpty)
    }

    @Test func theSocketIsTakenBeforeTheEngineAndClosedBeforeItStops() async throws {
        let parts = FakeParts()
        let host = IntercomHost(HostStage.daemon, parts: parts)
        try await host.start()
        await host.stop()
        let log = await parts.log
        func at(_ line: String) -> Int { log.firstIndex(of: line) ?? -1 }
        #expect(at("start controlSocket") < at("start engine"))
        #expect(at("start pipeline") < at("start engine"))
        #expect(at("start desktop") < at("start engine"))
        #expect(at("stop serving") < at("stop engine"))
        #expect(at("stop engine") < at("stop mqtt"))
        #expect(at("stop engine") < at("stop pipeline"))
        #expect(log.last == "stop pipeline")
    }

    @Test func anEngineThatFailsToStartUnwindsTheSiteSocketDesktopMQTTAndPipeline() async {
        let parts = FakeParts(failing: .engine)
        let host = IntercomHost(HostStage.daemon, parts: parts)
        await #expect(throws: Refused.self) { try await host.start() }
        #expect(await parts.log == ["start pipeline", "start mqtt", "start controlSocket", "start desktop", "start site", "start engine",
                                    "stop engine", "stop site", "stop desktop", "stop controlSocket", "stop mqtt", "stop pipeline"])
        #expect(await host.running.isEmpty)
    }

    @Test func aSocketThatIsTakenStopsTheDaemonBeforeTheEngine() async {
        let parts = FakeParts(failing: .controlSocket)
        let host = IntercomHost(HostStage.daemon, parts: parts)
        await #expect(throws: Refused.self) { try await host.start() }
        #expect(await parts.log == ["start pipeline", "start mqtt", "start controlSocket",
                                    "stop controlSocket", "stop mqtt", "stop pipeline"])
    }

    @Test func stoppingTwiceStopsNothingTwice() async throws {
        let parts = FakeParts()
        let host = IntercomHost(HostStage.screen(notify: false), parts: parts)
        try await host.start()
        await host.stop()
        let once = await parts.log
        await host.stop()
        #expect(await parts.log == once)
    }

    @Test func aScreenHasNoSocketNoShareKeeperAndNoSystemd() {
        #expect(HostStage.screen(notify: true) == [.pipeline, .mqtt, .desktop, .engine, .mqttConnect, .panelAlarms])
        #expect(!HostStage.screen(notify: false).contains(.desktop))
        #expect(Set(HostStage.daemon) == Set(HostStage.allCases))
    }
}
