import IntercomBase
import IntercomDaemon
import IntercomCore
import IntercomMQTT

/// The MQTT bridge for the daemon and the terminal client: only with `[mqtt]`, and only in the
/// process that records the journal, so two front ends on one machine never both publish.
enum MQTTFrontEnd {
    @Sendable static func make(_ intercom: Intercom, pipeline: EventPipeline) async -> (any HostFace)? {
        let logger = intercom.logger
        guard let settings = await intercom.config.mqtt else { return nil }
        guard pipeline.recordsJournal else {
            logger.notice("mqtt: another intercom records the journal and publishes to MQTT; this one does not")
            return nil
        }
        let bridge = MQTTBridge(intercom: intercom, settings: settings, logger: logger)
        // Drops too (messages read elsewhere): the sensor shows the count, not only its rises.
        await pipeline.operatorLog?.observeUnread { name, count in await bridge.publishUnread(name, count) }
        return bridge
    }
}

/// The host starts the bridge beside the engine and stops it after the engine.
extension MQTTBridge: HostFace {}
