/// The binaries `intercom` is installed as, side by side in one directory.
public enum CommandProgram: String, Sendable, CaseIterable {
    /// The light launcher: the commands that need no SIP phone (it links no liblinphone).
    case launcher = "intercom"
    /// The phone, the screens and the daemon.
    case full = "intercom-full"
    /// The simulators: the only installed binary that links libmicrohttpd.
    case simulator = "intercom-sim"
}

/// One command as help lists it, and the binary that runs it.
public struct CommandEntry: Sendable, Equatable {
    public var name: String
    public var program: CommandProgram
    public var summary: String
}

/// Every command intercom has, in help order: the one list of names, their one-line summaries and
/// which binary runs each. The launcher routes by it, every binary's overview prints it, and each
/// `CommandSpec` takes its summary from it; a binary's own table holds only its own commands.
public enum CommandIndex {
    public static let all: [CommandEntry] = [
        CommandEntry(name: "tui", program: .full,
                     summary: "the full-screen client: wait for calls, see who rings, answer, open the door"),
        CommandEntry(name: "demo", program: .full,
                     summary: "see the whole flow with no hardware: a simulated panel rings this screen, beside a simulated operator's door"),
        CommandEntry(name: "call", program: .full,
                     summary: "call a panel to look and talk (its camera and microphone), without anyone ringing"),
        CommandEntry(name: "daemon", program: .full,
                     summary: "run headless: listen for panel calls, auto-answer per panel, print events"),
        // intercom-full: it asks each panel's camera stream to describe itself (FFmpeg).
        CommandEntry(name: "setup", program: .full,
                     summary: "first run: find Beward panels on the local network, check their passwords, write the config"),
        CommandEntry(name: "doctor", program: .full,
                     summary: "check config, permissions, panels (reachability, auth, stream), hooks, MQTT (login, ca_file, who else can press the doors), operator logins, SIP listen/registration, audio, terminal graphics"),
        CommandEntry(name: "ctl", program: .launcher, summary: "talk to a running daemon through its control socket"),
        CommandEntry(name: "log", program: .launcher,
                     summary: "show the event journal: who rang, when, the outcome and their picture"),
        CommandEntry(name: "snapshot", program: .full, summary: "fetch one picture from a panel or an operator camera and save it as JPEG"),
        CommandEntry(name: "watch", program: .full, summary: "show a panel's or an operator's camera live in the terminal, without a call (q quits)"),
        CommandEntry(name: "open", program: .launcher,
                     summary: "open a door outside a call (panel HTTP API, or the operator's API)"),
        CommandEntry(name: "doors", program: .launcher,
                     summary: "list every door this client can open (panels and operators), with the id 'open' takes"),
        CommandEntry(name: "cameras", program: .launcher,
                     summary: "list every picture source (panels and operators' cameras), with the id 'watch' and 'snapshot' take"),
        CommandEntry(name: "login", program: .launcher,
                     summary: "log in to a SmartYard operator: request a code, read it, keep the token"),
        CommandEntry(name: "logout", program: .launcher, summary: "forget a SmartYard operator's token (the device id is kept)"),
        CommandEntry(name: "settings", program: .launcher, summary: "show or change the operator's intercom settings of the flat"),
        CommandEntry(name: "share", program: .launcher,
                     summary: "give a phone access to the flat through the operator, take it back, or list who has it"),
        CommandEntry(name: "inbox", program: .launcher, summary: "read the operator's messages, or count the unread ones"),
        CommandEntry(name: "faces", program: .launcher, summary: "the operator's known faces of the flat: list, register from a log entry, remove"),
        CommandEntry(name: "plates", program: .launcher, summary: "the flat's licence plates the operator's gates open for: list, add, remove"),
        CommandEntry(name: "export", program: .launcher, summary: "save a piece of an operator camera's recording as an MP4 file"),
        CommandEntry(name: "config", program: .full, summary: "print a commented example config, or check the config file"),
        CommandEntry(name: "site", program: .full,
                     summary: "set up the PostgreSQL database several desks share: create or upgrade its schema (init)"),
        CommandEntry(name: "completion", program: .full,
                     summary: "print the bash, zsh or fish completion script (commands, options, panel names and door ids)"),
        CommandEntry(name: "simulate-panel", program: .simulator,
                     summary: "run a simulated Beward panel: HTTP CGI API on 127.0.0.1 and a SIP caller"),
        CommandEntry(name: "simulate-operator", program: .simulator,
                     summary: "run a simulated SmartYard operator: the mobile API on 127.0.0.1, a test phone, doors on a simulated panel"),
    ]

    public static func entry(named name: String) -> CommandEntry? {
        all.first { $0.name == name }
    }

    /// The binary that runs a command line (without the program name): the named command's, also
    /// for `help NAME` and `NAME --help`; nil for the rest (no command, `--version`, an unknown
    /// word), which intercom-full answers.
    public static func program(for arguments: [String]) -> CommandProgram? {
        guard let first = arguments.first else { return nil }
        // Shell completion asks for names on every Tab: the light binary reads the config.
        if first == DynamicCompletion.command { return .launcher }
        // Every binary's table answers the version itself: no reason to start the phone's binary for it.
        if CommandTable.versionWords.contains(first) { return .launcher }
        if ["--help", "-h", "help"].contains(first) {
            return arguments.dropFirst().first.flatMap { entry(named: $0)?.program }
        }
        return entry(named: first)?.program
    }
}
