import Foundation
import IntercomBase

/// Gets a person's attention when a panel rings: the terminal bell, and a desktop notification
/// through the terminal (OSC 777 / OSC 9, which kitty, foot, WezTerm, iTerm2 and rxvt show)
/// and `notify-send` where a desktop session exists. Each can be switched off.
struct Alerts {
    var bell: Bool
    var notify: Bool
    var environment: [String: String]

    func ring(_ write: (String) -> Void) {
        if bell { write("\u{07}") }
    }

    func notifyIncoming(_ title: String, _ write: (String) -> Void) {
        guard notify else { return }
        // The title may be a caller's SIP URI: a BEL or ESC in it would end the OSC early and the
        // rest would be acted on by the terminal.
        let title = TerminalSafe.escape(title)
        write("\u{1B}]777;notify;intercom;\(title) is calling\u{1B}\\")
        write("\u{1B}]9;\(title) is calling\u{1B}\\")
        guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil,
              let path = ["/usr/bin/notify-send", "/bin/notify-send"].first(where: FileManager.default.isExecutableFile)
        else { return }
        // Never through a shell: the panel name goes in as one argument.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--app-name=intercom", "\(title) is calling"]
        try? process.run()
    }
}
