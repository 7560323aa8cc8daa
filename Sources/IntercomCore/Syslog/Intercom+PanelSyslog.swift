import Foundation
import IntercomBase
import IntercomPanel
import IntercomPhone

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

    /// A panel's call that rang here and ends unanswered after the flat's analogue handset took it
    /// (the panel's syslog said so) was answered elsewhere, not missed: no visitor to call back.
    func endReason(of id: CallID, _ reason: CallEndReason) -> CallEndReason {
        guard reason == .missed || reason == .remoteHangup, let session = calls[id], session.stage == .ringing,
              session.info.direction == .incoming, let panel = session.panel?.name,
              syslog.answeredOnHandset(panel, since: session.since) else { return reason }
        return .answeredElsewhere
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
