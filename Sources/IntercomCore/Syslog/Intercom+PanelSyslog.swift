import Foundation
import IntercomBase
import IntercomPanel

/// The panels' syslog (`[syslog]`, `[panel] syslog`): one socket for every panel, read by an
/// engine task; each datagram goes through the `PanelSyslog` part.
extension Intercom {
    /// Binds the syslog socket when a panel's syslog is heard and reads it for the engine's life.
    /// Throws `SyslogSocket.OpenError` (its one line and exit code) when the address cannot be bound. Returns the address bound
    /// (its port chosen by the OS for 0), nil when no panel's syslog is heard.
    @discardableResult
    public func hearPanelSyslog() throws -> ListenAddress? {
        guard let address = config.syslogListen else { return nil }
        let socket = try SyslogSocket.open(address)
        let names = config.syslogPanels.map(\.name).joined(separator: ", ")
        logger.notice("syslog: listening on udp:\(socket.bound.host):\(socket.bound.port) for \(names)")
        tasks.start { [weak self] in
            for await datagram in socket.datagrams {
                await self?.heardSyslog(datagram)
            }
        }
        return socket.bound
    }

    func heardSyslog(_ datagram: SyslogSocket.Datagram) {
        let gate = callerGate
        let context = PanelSyslog.Context(panelsAt: { gate.panels(at: $0) }, heard: Set(config.syslogPanels.map(\.name)),
                                          inCall: { [calls] in calls.current(panel: $0) != nil }, now: clock.date)
        for kind in syslog.receive(datagram.bytes, from: datagram.source, context, logger: logger) {
            bus.publish(IntercomEvent(kind, time: context.now))
        }
    }
}
