import Foundation
import Testing
@testable import IntercomBase
@testable import IntercomHTTP
import IntercomTestSupport

/// Parses `text` as a config and returns the error it must produce.
func configError(_ text: String, file: String = "config.ini",
                 environment: [String: String] = ["HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/1000"],
                 sourceLocation: SourceLocation = #_sourceLocation) -> ConfigError? {
    do {
        _ = try ConfigLoader.parse(text: text, path: file, environment: environment)
        Issue.record("expected a config error", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

func parseConfig(_ text: String, environment: [String: String] = ["HOME": "/home/u", "XDG_RUNTIME_DIR": "/run/user/1000"],
                 timeZone: TimeZone = TimeZone(identifier: "Europe/Moscow") ?? .current) throws -> LoadedConfig {
    try ConfigLoader.parse(text: text, path: "config.ini", environment: environment, timeZone: timeZone)
}

/// A scratch directory removed by the caller.
func makeTemporaryDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("intercom-config-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
