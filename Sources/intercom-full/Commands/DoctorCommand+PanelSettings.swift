import IntercomBase
import IntercomCLI
import IntercomPanel

/// What `doctor` reads from a panel that answered, beyond its model: its own SIP registration
/// (`sip_cgi` `AccountReg1`) and whether its firmware has the alarm stream. Both are warnings:
/// doors and calls work either way. The alarm stream needs a second to prove itself, so the
/// panels are asked all at once and reported in config order.
extension DoctorCommand {
    static func panelSettingsFindings(_ panels: [(BewardPanel, PanelConfig)]) async -> [Finding] {
        await withTaskGroup(of: (Int, [Finding]).self) { group in
            for (index, (client, panel)) in panels.enumerated() {
                group.addTask { (index, await panelSettingsFindings(client, panel)) }
            }
            var byIndex: [Int: [Finding]] = [:]
            for await (index, findings) in group { byIndex[index] = findings }
            return panels.indices.flatMap { byIndex[$0] ?? [] }
        }
    }

    private static func panelSettingsFindings(_ client: BewardPanel, _ panel: PanelConfig) async -> [Finding] {
        var findings: [Finding] = []
        switch try? await client.sipRegistration() {
        case true?:
            findings.append(Finding(ok: true, text: "\(panel.name): the panel's own SIP account is registered (AccountReg1=1)"))
        case false?:
            findings.append(Finding(ok: false, text: "\(panel.name): the panel's own SIP account is not registered (AccountReg1=0): "
                + "calls it places through its SIP server will not arrive; check the panel's SIP settings", code: ExitCode.ok))
        case nil:
            break
        }
        switch await client.alarmStreamCheck() {
        case .connected?:
            findings.append(Finding(ok: true, text: "\(panel.name): alarm stream open (button, motion and relay events)"))
        case .noAlarmStream(let error)?:
            findings.append(Finding(ok: false, text: "\(panel.name): \(error)", code: ExitCode.ok))
        default:
            break
        }
        return findings
    }
}
