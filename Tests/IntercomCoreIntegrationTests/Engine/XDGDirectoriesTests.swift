import IntercomCore
import IntercomPhoneTestSupport
import Testing
import IntercomBase
import IntercomPhone

// In the engine's tests: the engine maps the config to the phone's settings (PhoneSettings+Config).
/// One set of XDG rules for every part: a relative variable is ignored, HOME is the fallback.
@Suite(.removesTestFolders) struct XDGDirectoriesTests {
    @Test func thePhoneAndTheJournalShareOneTree() {
        for environment in [["XDG_DATA_HOME": "relative/data", "HOME": "/home/u"], ["HOME": "/home/u"],
                            ["XDG_DATA_HOME": "/data"], [:]] {
            let xdg = XDGDirectories(environment: environment, uid: 7)
            let config = IntercomConfig(daemon: DaemonSettings(socketPath: "/unused"))
            let phone = PhoneSettings(config: config, environment: environment, logger: .silent)
            let journal = JournalLocation.directory(config.journal, environment: environment)
            #expect(phone.dataDirectory == journal + "/sip" || environment.isEmpty, "\(environment)")
            #expect(journal == xdg.dataDirectory || environment.isEmpty)
        }
        #expect(XDGDirectories(environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"]).dataDirectory == "/h/.local/share/intercom")
        #expect(XDGDirectories(environment: ["XDG_DATA_HOME": "/d"]).dataDirectory == "/d/intercom")
        #expect(XDGDirectories(environment: [:], uid: 7).dataDirectory == "/tmp/intercom-7")
        #expect(XDGDirectories(environment: ["XDG_RUNTIME_DIR": "run"], uid: 7).runtimeDirectory == "/tmp/intercom-7")
        #expect(XDGDirectories(environment: ["XDG_CONFIG_HOME": "", "HOME": "/h"]).configHome == "/h/.config")
    }
}
