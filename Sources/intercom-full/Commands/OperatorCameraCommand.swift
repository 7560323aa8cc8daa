import Foundation
import IntercomBase
import IntercomCLI
import IntercomEngine
import IntercomImaging
import IntercomOperator
import IntercomPhone
import IntercomVideo

/// What `snapshot` and `watch` share for operator cameras (`OPERATOR:cam:ID`): telling such an id
/// from a panel name, `--at`, and the engine that asks the operator for the camera's address.
enum OperatorCameraCommand {
    /// The first positional when it is an operator camera id rather than a panel name, or an
    /// operator door (`home:1:0`), which stands for its panel's camera (the one its calls show).
    static func cameraID(_ invocation: Invocation) -> String? {
        guard let name = invocation.arguments.positionals.first,
              OperatorItemID.parseCamera(name) != nil || OperatorItemID.parseDoor(name) != nil,
              let config = try? invocation.loadConfig(), config.panel(named: name) == nil else { return nil }
        return name
    }

    /// `--at TIME` as a date, or the line to print.
    static func at(_ invocation: Invocation) -> Result<Date?, CommandFailure> {
        guard let text = invocation.arguments.value("--at") else { return .success(nil) }
        do {
            let date = try GuestTimeParser.parse(text, timeZone: .current)
            guard date <= Date() else {
                return .failure(CommandFailure("--at \(text) is in the future; recordings end now", code: ExitCode.usage))
            }
            return .success(date)
        } catch {
            return .failure(CommandFailure("--at: \(error.message)" + (error.fix.map { " — \($0)" } ?? ""), code: ExitCode.usage))
        }
    }

    /// The intercom for its operators only: the phone is never started.
    static func engine(_ invocation: Invocation) -> Result<Intercom, CommandFailure> {
        do {
            let config = try invocation.loadConfig()
            return .success(TUICommand.engine(config, PhoneSettings(config: config, environment: invocation.environment),
                                              invocation, logger: invocation.logger))
        } catch {
            return .failure(CommandFailure(error.description, code: error.exitCode))
        }
    }
}

extension SnapshotCommand {
    /// An operator camera's `preview.mp4` (now, or at `--at`), decoded and saved or shown like a panel's.
    static func operatorSnapshot(_ camera: String, _ invocation: Invocation) async -> Int32 {
        let at: Date?
        switch OperatorCameraCommand.at(invocation) {
        case .success(let date): at = date
        case .failure(let failure): return Console.fail(failure.message, code: failure.code)
        }
        let intercom: Intercom
        switch OperatorCameraCommand.engine(invocation) {
        case .success(let built): intercom = built
        case .failure(let failure): return Console.fail(failure.message, code: failure.code)
        }
        // Stopped here, awaited: its tasks end before the command returns.
        let picture: Result<RGBImage, any Error>
        do {
            let source = try await intercom.operatorCameraSource(camera, .preview(at: at))
            picture = .success(try await VideoPicture.first(from: source))
        } catch {
            picture = .failure(error)
        }
        await intercom.stop()
        let image: RGBImage
        do {
            image = try picture.get()
        } catch let error as IntercomError {
            return Console.fail(error.description, code: error.exitCode)
        } catch let error as VideoError {
            return Console.fail(error.description, code: error.exitCode)
        } catch {
            return Console.fail("\(error)", code: ExitCode.failure)
        }
        if invocation.arguments.has("--show") {
            let shown = show(image, invocation)
            guard shown == ExitCode.ok, invocation.arguments.value("-o") != nil else { return shown }
        }
        do {
            return save(try JPEG.encode(image, quality: 90), name: camera, invocation)
        } catch {
            return Console.fail("the camera's picture could not be saved as JPEG: \(error.description)", code: ExitCode.dataError)
        }
    }
}
