import Foundation
import IntercomCore
import IntercomPhoneTestSupport
import IntercomTestSupport
import IntercomTestSupport
import IntercomPhoneTestSupport
import IntercomBase
import IntercomPhone

extension PhoneTestSupport {
    /// A started intercom on a random loopback UDP port, no sound card, recording its events.
    static func intercom(panels: [PanelConfig], unknownCallers: UnknownCallerPolicy = .reject,
                         declineOthers: Bool = false,
                         socketPath: String = "/tmp/unused.sock") async throws -> (Intercom, EventRecorder<IntercomEvent>) {
        let config = IntercomConfig(
            sip: SIPSettings(listen: [ListenAddress(transport: .udp, host: "127.0.0.1", port: 0)],
                             unknownCallers: unknownCallers, declineOthersOnAnswer: declineOthers),
            panels: panels, daemon: DaemonSettings(socketPath: socketPath))
        var settings = PhoneSettings(config: config, environment: [:])
        settings.dataDirectory = tempDirectory("intercom")
        settings.audio = .files(play: nil, record: nil)
        let intercom = Intercom(config: config, phoneSettings: settings, logger: .silent)
        let events = EventRecorder(intercom.bus.subscribe())
        try await intercom.start()
        return (intercom, events)
    }
}
