import Foundation
import IntercomBase
import IntercomOperator

/// What `snapshot` and `watch` read alike for operator cameras (`OPERATOR:cam:ID`): telling such an id
/// from a panel name, and `--at`. In IntercomCLI so the light `intercom` reads a `watch` line as
/// intercom-full does (the engine that asks the operator for the camera stays in intercom-full).
public enum OperatorCameraArguments {
    /// The first positional when it is an operator camera id rather than a panel name, an operator
    /// door (`home:1:0`), which stands for its panel's camera (the one its calls show), or one
    /// entrance's camera (`home:entrance:7`).
    public static func cameraID(_ invocation: Invocation) -> String? {
        guard let name = invocation.arguments.positionals.first,
              OperatorItemID.parseCamera(name) != nil || OperatorItemID.parseDoor(name) != nil
                || OperatorItemID.parseEntrance(name) != nil,
              let config = try? invocation.loadConfig(), config.panel(named: name) == nil else { return nil }
        return name
    }

    /// `--at TIME` as a date, or the line to print.
    public static func at(_ invocation: Invocation) -> Result<Date?, CommandError> {
        guard let text = invocation.arguments.value("--at") else { return .success(nil) }
        do {
            let date = try GuestTimeParser.parse(text, timeZone: .current)
            guard date <= Date() else {
                return .failure(CommandError("--at \(text) is in the future; recordings end now", code: ExitCode.usage))
            }
            return .success(date)
        } catch {
            return .failure(CommandError("--at: \(error.message)" + (error.fix.map { " — \($0)" } ?? ""), code: ExitCode.usage))
        }
    }
}
