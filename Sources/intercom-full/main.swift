import Foundation
import IntercomCLI
import IntercomCore
import IntercomBase
import IntercomHTTP

StandardStream.ignoreBrokenPipes()
// The only place the process exits: commands return their code.
let code = await CommandTable.standard.run(Array(CommandLine.arguments.dropFirst()),
                                           environment: ProcessInfo.processInfo.environment)
// No transfer may be inside curl while exit's handlers free the C libraries' state.
HTTPEventLoop.stopShared()
exit(code)
