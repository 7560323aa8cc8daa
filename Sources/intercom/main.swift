import Foundation
import IntercomBase
import IntercomCLI

// Commands that need no SIP phone run here, in a process that loads a handful of libraries; every
// other command line goes to intercom-full, whose liblinphone dependency tree (about 200 shared
// libraries, bound at load time) costs ~80 ms before main. Scripts call `intercom log` often.
// The HTTP-only commands (open, doors, cameras, the operator's) need libcurl but no phone.
StandardStream.ignoreBrokenPipes()
let arguments = Array(CommandLine.arguments.dropFirst())
let light = CommandTable(commands: [LogCommand.spec, CtlCommand.spec, OpenCommand.spec, DoorsCommand.spec,
                                    CamerasCommand.spec, LoginCommand.spec, LogoutCommand.spec, SettingsCommand.spec,
                                    ShareCommand.spec])
let code: Int32
if let first = arguments.first, light.commands.contains(where: { $0.name == first }) {
    code = await light.run(arguments, environment: ProcessInfo.processInfo.environment)
} else {
    code = FullProgram.exec(arguments)
}
exit(code)
