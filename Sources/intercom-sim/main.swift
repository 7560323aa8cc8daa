import Foundation
import IntercomBase
import IntercomCLI

// `intercom-sim`: the simulated panel and operator, which the launcher execs for `intercom
// simulate-panel` and `simulate-operator` and `intercom demo` starts as child processes. Kept apart
// so intercom-full (the daemon) does not link libmicrohttpd.
StandardStream.ignoreBrokenPipes()
let table = CommandTable(commands: [SimulatePanelCommand.spec, SimulateOperatorCommand.spec])
// The only place the process exits: commands return their code.
let code = await table.run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
exit(code)
