import Foundation
import IntercomBase
import IntercomCLI
import IntercomScreenCommands

// Commands that need no SIP phone run here, in a process that loads a handful of libraries; every
// other command line goes to intercom-full (or, for the simulators, intercom-sim), whose liblinphone
// dependency tree (about 200 shared libraries, bound at load time) costs ~80 ms before main. Scripts
// call `intercom log` often. The HTTP-only commands (open, doors, cameras, the operator's) need
// libcurl but no phone. CommandIndex says which binary runs which command; a `tui` or `watch` beside the
// running daemon is an attached screen (no engine, no phone) and runs here too.
StandardStream.ignoreBrokenPipes()
let arguments = Array(CommandLine.arguments.dropFirst())
let light = CommandTable(commands: [LogCommand.spec, CtlCommand.spec, OpenCommand.spec, DoorsCommand.spec,
                                    CamerasCommand.spec, LoginCommand.spec, LogoutCommand.spec, SettingsCommand.spec,
                                    ShareCommand.spec, InboxCommand.spec, ExportCommand.spec, FacesCommand.spec,
                                    PlatesCommand.spec])
let code: Int32
switch CommandIndex.program(for: arguments) {
case .launcher:
    code = await light.run(arguments, environment: ProcessInfo.processInfo.environment)
case .simulator:
    code = SiblingProgram.exec(.simulator, arguments)
case .full, nil:
    // A screen beside the running daemon attaches to it and needs no phone: it runs here.
    if let attached = await AttachedScreenLauncher.run(arguments, environment: ProcessInfo.processInfo.environment) {
        code = attached
    } else {
        code = SiblingProgram.exec(.full, arguments)
    }
}
exit(code)
