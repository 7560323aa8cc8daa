import Foundation
import IntercomBase
import IntercomCore
import IntercomCoreFakes
import IntercomMQTT
import IntercomTestSupport
import Testing

/// No task of the MQTT bridge outlives it (issue 23): an answered call's picture, which waits two
/// seconds for the call's video, belongs to the bridge and to the call, and `stop` cancels and
/// awaits it with the others. The broker is a closed loopback port: nothing here needs one.
@Suite struct MQTTBridgeTaskTests {
    @Test func anAnsweredCallsPictureTaskEndsWithTheBridge() async throws {
        try await EngineRig.run(panels: [CallPolicyTests.entrance()]) { rig throws in
            let bridge = MQTTBridge(intercom: rig.intercom, settings: MQTTSettings(url: "mqtt://127.0.0.1:9"),
                                    host: "test", logger: .silent)
            await bridge.start()
            // The broker's events and the operators' doors' refresh.
            let idle = bridge.runningTasks
            _ = try await AttendedTransferTests.answeredCall(rig)
            // The bridge hears `call_answered` on its own pump: its picture task starts then.
            _ = await TestPatience.eventually(within: .seconds(10), every: .milliseconds(5)) { bridge.runningTasks != idle }
            #expect(bridge.runningTasks == idle + 1, "the answered call's picture task did not start")
            let clock = ContinuousClock()
            let stopping = clock.now
            await rig.stop()
            await bridge.stop()
            #expect(bridge.runningTasks == 0, "a task of the bridge outlived its stop")
            // Cancelled, not waited out: its two seconds' wait for the call's video ends at once.
            #expect(clock.now - stopping < .seconds(1.5), "\(clock.now - stopping)")
        }
    }
}
