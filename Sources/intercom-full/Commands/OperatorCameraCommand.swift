import Foundation
import IntercomBase
import IntercomCLI
import IntercomCore
import IntercomImaging
import IntercomPhone
import IntercomVideo

/// The engine that asks an operator for a camera's address, for `snapshot` and `watch` (what they read
/// from the command line is IntercomCLI's `OperatorCameraArguments`).
enum OperatorCameraCommand {
    /// The intercom for its operators only: the phone is never started.
    static func engine(_ invocation: Invocation) -> Result<Intercom, CommandError> {
        do {
            let config = try invocation.loadConfig()
            return .success(TUICommand.engine(config, PhoneSettings(config: config, environment: invocation.environment),
                                              invocation, logger: invocation.logger))
        } catch {
            return .failure(CommandError(error.description, code: error.exitCode))
        }
    }
}

extension SnapshotCommand {
    /// An operator camera's `preview.mp4` (now, or at `--at`), decoded and saved or shown like a panel's.
    static func operatorSnapshot(_ camera: String, _ invocation: Invocation) async -> Int32 {
        let at: Date?
        switch OperatorCameraArguments.at(invocation) {
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
