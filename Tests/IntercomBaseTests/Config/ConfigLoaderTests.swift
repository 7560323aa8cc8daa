import Foundation
import Testing
@testable import IntercomBase
@testable import IntercomHTTP
import IntercomTestSupport

@Suite struct ConfigLoaderTests {
    @Test func resolutionOrder() {
        let all = ["INTERCOM_CONFIG": "/env/c.ini", "XDG_CONFIG_HOME": "/xdg", "HOME": "/home/u"]
        #expect(ConfigLoader.resolvePath(explicit: "/flag.ini", environment: all)
                == ConfigLocation(path: "/flag.ini", source: .flag))
        #expect(ConfigLoader.resolvePath(explicit: nil, environment: all)
                == ConfigLocation(path: "/env/c.ini", source: .environment))
        var noEnv = all
        noEnv["INTERCOM_CONFIG"] = ""
        #expect(ConfigLoader.resolvePath(explicit: nil, environment: noEnv)
                == ConfigLocation(path: "/xdg/intercom/config.ini", source: .xdgConfigHome))
        noEnv["XDG_CONFIG_HOME"] = "relative"
        #expect(ConfigLoader.resolvePath(explicit: nil, environment: noEnv)
                == ConfigLocation(path: "/home/u/.config/intercom/config.ini", source: .home))
        #expect(ConfigLoader.resolvePath(explicit: nil, environment: [:]) == ConfigLocation(path: nil, source: .none))
        #expect(ConfigLoader.resolvePath(explicit: nil, environment: ["INTERCOM_CONFIG": "~/i.ini", "HOME": "/h"])
                == ConfigLocation(path: "/h/i.ini", source: .environment))

        #expect(ConfigLocation(path: "x", source: .flag).isExplicit)
        #expect(ConfigLocation(path: "x", source: .environment).isExplicit)
        #expect(!ConfigLocation(path: "x", source: .xdgConfigHome).isExplicit)
        #expect(!ConfigLocation(path: "x", source: .home).isExplicit)
    }

    @Test func missingDefaultFileGivesDefaults() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let environment = ["HOME": dir, "XDG_RUNTIME_DIR": "/run/user/9"]
        let loaded = try ConfigLoader.load(explicit: nil, environment: environment)
        #expect(loaded.config == IntercomConfig.defaults(environment: environment))
        #expect(loaded.location?.source == .home)
        #expect(loaded.config.path == nil)
    }

    @Test func missingExplicitFileIsAnError() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/nope.ini"
        #expect(throws: ConfigError.self) { try ConfigLoader.load(explicit: path, environment: [:]) }
        do {
            _ = try ConfigLoader.load(explicit: nil, environment: ["INTERCOM_CONFIG": path])
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("INTERCOM_CONFIG"))
            #expect(error.description.hasPrefix(path + ": "))
            #expect(error.exitCode == 65)
        }
    }

    @Test func directoryIsAnError() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: ConfigError.self) { try ConfigLoader.load(explicit: dir, environment: [:]) }
    }

    private func write(_ text: String, mode: mode_t, in dir: String) throws -> String {
        let path = dir + "/config.ini"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, mode) == 0)
        return path
    }

    @Test func passwordInLooseFileIsRefused() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try write("[panel door]\nurl = http://10.0.0.1\npassword = hunter2\n", mode: 0o644, in: dir)
        do {
            _ = try ConfigLoader.load(explicit: path, environment: [:])
            Issue.record("expected the permission rule to refuse the file")
        } catch {
            #expect(error.description.contains("chmod 600 \(path)"), "\(error.description)")
            #expect(error.description.contains("readable by others"))
            #expect(error.line == 3)
            #expect(error.key == "password")
            #expect(!error.description.contains("hunter2"))
        }
        let sip = try write("[sip]\naccount = sip:1@pbx\npassword = x\n", mode: 0o640, in: dir)
        #expect(throws: ConfigError.self) { try ConfigLoader.load(explicit: sip, environment: [:]) }
    }

    @Test func passwordInPrivateFileIsAccepted() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try write("[panel door]\nurl = http://10.0.0.1\npassword = hunter2\n", mode: 0o600, in: dir)
        let loaded = try ConfigLoader.load(explicit: path, environment: [:])
        #expect(loaded.config.panels.first?.password == "hunter2")
        #expect(loaded.config.path == path)
        #expect(loaded.location == ConfigLocation(path: path, source: .flag))
    }

    @Test func looseFileWithoutPasswordIsAccepted() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try write("[panel door]\nurl = http://10.0.0.1\npassword =\n", mode: 0o644, in: dir)
        let loaded = try ConfigLoader.load(explicit: nil, environment: ["INTERCOM_CONFIG": path])
        #expect(loaded.config.panels.first?.password == nil)
        #expect(loaded.location?.source == .environment)
    }

    @Test func defaultLocationIsRead() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/intercom", withIntermediateDirectories: true)
        try "[sip]\nlisten = tcp:[::1]:0\n".write(toFile: dir + "/intercom/config.ini", atomically: false, encoding: .utf8)
        let loaded = try ConfigLoader.load(explicit: nil, environment: ["XDG_CONFIG_HOME": dir, "HOME": "/nonexistent"])
        #expect(loaded.config.sip.listen.map(\.description) == ["tcp:[::1]:0"])
        #expect(loaded.location?.source == .xdgConfigHome)
    }

    @Test func warningsCarryThePath() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try write("[panel gate]\nurl = http://10.0.0.1\nfsp = 3\n", mode: 0o600, in: dir)
        let loaded = try ConfigLoader.load(explicit: path, environment: [:])
        #expect(loaded.warnings.map(\.description) == ["\(path):3: unknown key 'fsp' in [panel gate] (ignored)"])
    }
}
