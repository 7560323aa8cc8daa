import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Expands `~`, `$HOME` and `$XDG_RUNTIME_DIR` in config paths from an
/// environment passed in (not read from the process), so tests and the
/// daemon see the same rules. Only these variables are expanded: a config
/// file is not a shell script.
public struct PathExpander: Sendable {
    public var environment: [String: String]
    public var uid: UInt32

    public init(environment: [String: String], uid: UInt32 = getuid()) {
        self.environment = environment
        self.uid = uid
    }

    private func variable(_ name: String) -> String? {
        guard let value = environment[name], !value.isEmpty else { return nil }
        return value
    }

    /// Where per-session files (the control socket) live.
    public var runtimeDirectory: String { XDGDirectories(environment: environment, uid: uid).runtimeDirectory }

    public func expand(_ text: String) throws(ConfigValueError) -> String {
        var result = text
        if result == "~" || result.hasPrefix("~/") {
            guard let home = variable("HOME") else {
                throw ConfigValueError("'~' used but HOME is not set", fix: "write an absolute path")
            }
            result = home + result.dropFirst()
        } else if result.hasPrefix("~") {
            throw ConfigValueError("'~user' paths are not supported", fix: "write an absolute path")
        }
        for spelling in ["${XDG_RUNTIME_DIR}/intercom", "$XDG_RUNTIME_DIR/intercom"] {
            // The fallback directory stands in for the whole `$XDG_RUNTIME_DIR/intercom`
            // so the example config works in sessions without a runtime dir.
            result = result.replacingAll(spelling, with: runtimeDirectory)
        }
        for name in ["XDG_RUNTIME_DIR", "HOME"] {
            for spelling in ["${\(name)}", "$\(name)"] where result.contains(spelling) {
                guard let value = variable(name) else {
                    throw ConfigValueError("'\(spelling)' used but \(name) is not set",
                                           fix: "write an absolute path")
                }
                result = result.replacingAll(spelling, with: value)
            }
        }
        return result
    }
}

extension String {
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        return components(separatedBy: target).joined(separator: replacement)
    }
}
