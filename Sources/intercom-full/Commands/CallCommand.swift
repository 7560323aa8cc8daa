import Foundation
import IntercomCLI
import IntercomCore
import IntercomTUI
import IntercomBase

/// `intercom call [PANEL]`: calls a panel to look and talk, on the call screen; back to the shell
/// when the call ends.
enum CallCommand {
    static let spec = CommandSpec(
        name: "call",
        arguments: "[PANEL]",
        maxPositionals: 1,
        options: TUICommand.options,
        details: """
        Dials the panel's `dial` URI (default: a `match` URI with a host, else sip:IP of the panel);
        the panel must accept calls (Beward: AllowIncoming / ckincall). Until it answers, its snapshot
        is shown. Keys: h hang up, o/O/g doors, m mute, s speaker, 0-9 DTMF. Exits 0 when the call was
        answered or hung up here, 69 when the panel could not be reached or refused.
        """,
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        let config: IntercomConfig
        do {
            config = try invocation.loadConfig()
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
        let panel = invocation.arguments.positionals.first
        let settings = TUICommand.phoneSettings(config, invocation)
        do {
            try settings.checkPrivateFallback()
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
        let intercom = TUICommand.engine(config, settings, invocation, logger: TUICommand.quietLogger(invocation))
        return await TUICommand.runScreen(intercom, invocation: invocation, kiosk: false, label: nil,
                                          call: OutgoingCall(panel: panel))
    }
}
