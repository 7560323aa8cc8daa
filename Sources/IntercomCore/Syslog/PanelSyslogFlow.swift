import Foundation
import IntercomBase
import IntercomPanel
import IntercomPhone

/// The panels' syslog (`[syslog]`, `[panel] syslog`): one socket for every panel, read by an
/// engine task; each datagram goes through the doors part's `PanelSyslog`. It runs on the engine
/// (`isolated Intercom`).
struct PanelSyslogFlow {
    /// Binds the syslog socket when a panel's syslog is heard and reads it for the engine's life.
    /// Throws `SyslogSocket.OpenError` (its one line and exit code) when the address cannot be bound.
    /// Returns the address bound (its port chosen by the OS for 0), nil when no panel's syslog is heard.
    func hear(on engine: isolated Intercom) throws -> ListenAddress? {
        guard let address = engine.config.syslogListen else { return nil }
        let socket = try SyslogSocket.open(address)
        let names = engine.config.syslogPanels.map(\.name).joined(separator: ", ")
        engine.logger.notice("syslog: listening on udp:\(socket.bound.host):\(socket.bound.port) for \(names)")
        engine.tasks.start { [weak engine] in
            for await datagram in socket.datagrams {
                guard let engine else { return }
                await heard(datagram, on: engine)
            }
        }
        return socket.bound
    }

    /// A panel's call that rang here and ends unanswered after the flat's analogue handset took it
    /// (the panel's syslog said so) was answered elsewhere, not missed: no visitor to call back.
    func endReason(of id: CallID, _ reason: CallEndReason, on engine: isolated Intercom) -> CallEndReason {
        guard reason == .missed || reason == .remoteHangup, let session = engine.calls[id], session.stage == .ringing,
              session.info.direction == .incoming, let panel = session.panel?.name,
              engine.doors.syslog.answeredOnHandset(panel, since: session.since) else { return reason }
        return .answeredElsewhere
    }

    func heard(_ datagram: SyslogSocket.Datagram, on engine: isolated Intercom) {
        let gate = engine.callerGate, calls = engine.calls
        let context = PanelSyslog.Context(panelsAt: { gate.panels(at: $0) }, heard: Set(engine.config.syslogPanels.map(\.name)),
                                          inCall: { calls.current(panel: $0) != nil }, now: engine.clock.date)
        for kind in engine.doors.syslog.receive(datagram.bytes, from: datagram.source, context, logger: engine.logger) {
            engine.bus.publish(IntercomEvent(kind, time: context.now))
        }
    }
}
