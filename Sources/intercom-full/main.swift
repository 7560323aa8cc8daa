import Foundation
import IntercomCLI
import IntercomCore
import IntercomBase

StandardStream.ignoreBrokenPipes()
// The only place the process exits: commands return their code.
let code = await CommandTable.standard.run(Array(CommandLine.arguments.dropFirst()),
                                           environment: ProcessInfo.processInfo.environment)
exit(code)
