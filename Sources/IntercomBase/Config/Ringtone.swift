import Foundation

/// Finds the WAV that `[audio] ringtone` names: a path, a name under the ringtones directory
/// (`chime`, `classic`), `default` (chime) or `off`.
public enum Ringtone {
    /// Where our generated ringtones live: `$INTERCOM_DATA_DIR/ringtones`, next to an installed
    /// binary (`../share/intercom/ringtones`), or in the source tree a development build runs from.
    public static func directories(executable: String, environment: [String: String]) -> [String] {
        let bin = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        var dirs: [String] = []
        if let data = environment["INTERCOM_DATA_DIR"], !data.isEmpty { dirs.append("\(data)/ringtones") }
        dirs.append(bin.appendingPathComponent("../share/intercom/ringtones").standardizedFileURL.path)
        // .build/<config>/intercom → the package root's Resources.
        dirs.append(bin.appendingPathComponent("../../Resources/ringtones").standardizedFileURL.path)
        dirs.append(bin.appendingPathComponent("../../../Resources/ringtones").standardizedFileURL.path)
        return dirs
    }

    /// The file to ring with, or nil for `off` or when nothing is found.
    public static func resolve(_ value: String, executable: String, environment: [String: String]) -> String? {
        switch value.lowercased() {
        case "off", "none", "": return nil
        default: break
        }
        if value.hasPrefix("/") { return FileManager.default.fileExists(atPath: value) ? value : nil }
        let name = value.lowercased() == "default" ? "chime" : value
        let file = name.hasSuffix(".wav") ? name : "\(name).wav"
        return directories(executable: executable, environment: environment)
            .map { "\($0)/\(file)" }
            .first { FileManager.default.fileExists(atPath: $0) }
    }
}
