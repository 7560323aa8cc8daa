import Foundation
import Testing
@testable import IntercomBase
@testable import IntercomHTTP
import IntercomTestSupport

@Suite struct ConfigDecodingTests {
    /// The documented example config (the design contract's), verbatim.
    static let interfaceExample = """
    [sip]
    listen = udp:127.0.0.1:5060      # one or more of udp:/tcp:/tls:HOST:PORT, comma separated
    unknown_callers = reject         # reject | accept  (calls whose caller matches no panel)
    # registrar account (optional; without it the client takes direct calls only)
    # account  = sip:101@pbx.example.org
    # password = secret
    # proxy    = sip:pbx.example.org:5060;transport=tcp

    [audio]
    playback = default               # device names as `intercom doctor` lists them
    capture  = default
    speaker  = default               # the device the speaker toggle switches to
    ringtone = default               # a WAV path, or a name under Resources/ringtones

    [panel entrance]
    url       = http://192.168.1.50  # the panel's HTTP base URL (http or https)
    user      = admin
    password  = admin
    model     = auto                 # auto | dks | ds  (auto reads systeminfo_cgi)
    match     = sip:100001@          # how an incoming call is recognised as this panel:
                                     # a prefix of the caller's SIP URI, or the caller's IP
    dtmf.main = 1                    # DTMF that opens each door during a call
    dtmf.alt  = 2
    open      = http                 # http | dtmf | both : how "open door" is done in a call
    peephole_fps = 3
    calls     = on                   # off = do not disturb for this panel (calls declined or ignored)
    auto_answer = off                # off | on | DELAY_SECONDS
    guest_until =                    # "wait for guests": until this time (RFC 3339 or
                                     # "YYYY-MM-DD HH:MM" local), a call is answered,
                                     # the main door opened and the call ended by itself

    [daemon]
    socket = $XDG_RUNTIME_DIR/intercom/control.sock

    [journal]
    keep_days = 90                   # pictures and entries older than this are removed
    max_mb    = 500

    [hooks]                          # a program per event type, run with argv + environment,
    on_call_incoming =               # never through a shell
    on_door_opened   =
    """

    @Test func interfaceExampleParses() throws {
        let loaded = try parseConfig(Self.interfaceExample)
        #expect(loaded.warnings.isEmpty)
        let config = loaded.config
        #expect(config.path == "config.ini")
        #expect(config.sip.listen == [ListenAddress(transport: .udp, host: "127.0.0.1", port: 5060)])
        #expect(config.sip.unknownCallers == .reject)
        #expect(config.sip.account == nil)
        #expect(config.sip.incomingTimeoutSeconds == 90)
        #expect(config.audio == AudioSettings())
        #expect(config.panels.count == 1)
        let panel = try #require(config.panels.first)
        #expect(panel == PanelConfig(name: "entrance", url: "http://192.168.1.50", password: "admin",
                                     match: [.uriPrefix("sip:100001@")]))
        #expect(config.daemon.socketPath == "/run/user/1000/intercom/control.sock")
        #expect(config.journal == JournalSettings(keepDays: 90, maxMB: 500, path: nil))
        #expect(config.hooks.isEmpty)
    }

    @Test func bundledExampleParsesWithoutWarnings() throws {
        let loaded = try parseConfig(ConfigExample.text)
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        #expect(loaded.config.panels.map(\.name) == ["entrance"])
        // Every key of the interface example is also in the bundled one.
        let bundled = try INIParser(file: "x").parse(ConfigExample.text)
        let contract = try INIParser(file: "x").parse(Self.interfaceExample)
        for section in contract.sections {
            let match = bundled.sections.first { $0.label == section.label }
            #expect(match != nil, "missing \(section.label)")
            for entry in section.entries {
                #expect(match?.entry(entry.key) != nil, "missing \(entry.key) in \(section.label)")
            }
        }
    }

    @Test func emptyTextGivesDefaults() throws {
        let environment = ["XDG_RUNTIME_DIR": "/run/user/7"]
        let loaded = try ConfigLoader.parse(text: "", path: nil, environment: environment)
        #expect(loaded.config == IntercomConfig.defaults(environment: environment))
        #expect(loaded.config.panels.isEmpty)
        #expect(loaded.config.sip.listen.map(\.description) == ["udp:127.0.0.1:5060"])
        #expect(loaded.config.daemon.socketPath == "/run/user/7/intercom/control.sock")
    }

    @Test func socketFallsBackWithoutRuntimeDir() throws {
        let uid = getuid()
        #expect(DaemonSettings.defaults(environment: [:]).socketPath == "/tmp/intercom-\(uid)/control.sock")
        let loaded = try parseConfig("[daemon]\nsocket = $XDG_RUNTIME_DIR/intercom/control.sock", environment: [:])
        #expect(loaded.config.daemon.socketPath == "/tmp/intercom-\(uid)/control.sock")
        let home = try parseConfig("[daemon]\nsocket = ~/run/ic.sock", environment: ["HOME": "/home/a"])
        #expect(home.config.daemon.socketPath == "/home/a/run/ic.sock")
        let braces = try parseConfig("[daemon]\nsocket = ${HOME}/ic.sock", environment: ["HOME": "/home/a"])
        #expect(braces.config.daemon.socketPath == "/home/a/ic.sock")
    }

    @Test func fullSIPAccount() throws {
        let config = try parseConfig("""
        [sip]
        listen = udp:0.0.0.0:5060, tcp:[::1]:0
        unknown_callers = accept
        account = sip:101@pbx.example.org
        password = "s3cr#t"
        proxy = sip:pbx.example.org:5060;transport=tcp
        register_expires = 300
        ring_timeout = 45
        tls_ca = /etc/pbx-ca.pem
        tls_verify = off
        media_encryption = srtp_mandatory
        media_timeout = 12
        """).config
        #expect(config.sip.listen.map(\.description) == ["udp:0.0.0.0:5060", "tcp:[::1]:0"])
        #expect(config.sip.tls == SIPTLSSettings(caFile: "/etc/pbx-ca.pem", verify: false))
        #expect(config.sip.mediaEncryption == .srtpMandatory)
        #expect(config.sip.unknownCallers == .accept)
        #expect(config.sip.incomingTimeoutSeconds == 45)
        #expect(config.sip.mediaTimeoutSeconds == 12)
        #expect(config.sip.account == SIPAccount(identity: "sip:101@pbx.example.org", password: "s3cr#t",
                                                 proxy: "sip:pbx.example.org:5060;transport=tcp",
                                                 expiresSeconds: 300))
    }

    @Test func everyPanelKey() throws {
        let config = try parseConfig("""
        [panel gate]
        url = https://gate.example.org:8443/
        user = operator
        password = pw
        model = DKS
        match = sip:200@, 10.0.0.7, [fe80::1]
        dtmf.main = "#"
        dtmf.alt = 12*a
        dtmf.duration_ms = 120
        dtmf.gap_ms = 80
        dtmf.repeat = 3
        open = both
        peephole_fps = 0.5
        calls = off
        auto_answer = 2.5
        guest_until = 2026-11-29T18:00:00+03:00
        tls_insecure = on
        ca_file = ~/ca.pem
        stream = sub
        dial = sip:200@gate.example.org:5062
        source = 10.0.0.7
        auto_open_interval = 0
        """).config
        let panel = try #require(config.panels.first)
        #expect(panel.source == ["10.0.0.7"] && panel.autoOpenInterval == 0)
        #expect(panel.name == "gate")
        #expect(panel.url == "https://gate.example.org:8443")
        #expect(panel.urlHost == "gate.example.org")
        #expect(panel.user == "operator")
        #expect(panel.password == "pw")
        #expect(panel.model == .dks)
        #expect(panel.match == [.uriPrefix("sip:200@"), .ip("10.0.0.7"), .ip("fe80::1")])
        #expect(panel.dtmfMain == "#")
        #expect(panel.dtmfAlt == "12*A")
        #expect(panel.dtmfTiming == DTMFTiming(durationMs: 120, gapMs: 80, repeat: 3))
        #expect(panel.open == .both)
        #expect(panel.peepholeFPS == 0.5)
        #expect(panel.calls == false)
        #expect(panel.autoAnswer == .after(seconds: 2.5))
        #expect(panel.guestUntil == Date(timeIntervalSince1970: 1_795_964_400))
        #expect(panel.tlsInsecure)
        #expect(panel.caFile == "/home/u/ca.pem")
        #expect(panel.stream == "sub")
        #expect(panel.dialURI == "sip:200@gate.example.org:5062")
    }

    @Test func panelDefaults() throws {
        let panel = try #require(try parseConfig("[panel p]\nurl = http://10.1.2.3").config.panels.first)
        #expect(panel.user == "admin")
        #expect(panel.password == nil)
        #expect(panel.model == .auto)
        #expect(panel.dtmfMain == "1")
        #expect(panel.dtmfAlt == "2")
        #expect(panel.dtmfTiming == DTMFTiming(durationMs: 250, gapMs: 500, repeat: 1))
        #expect(panel.open == .http)
        #expect(panel.peepholeFPS == 3)
        #expect(panel.calls)
        #expect(panel.autoAnswer == .off)
        #expect(panel.guestUntil == nil)
        #expect(panel.tlsInsecure == false)
        #expect(panel.caFile == nil)
        #expect(panel.stream == nil)
    }

    @Test func autoAnswerForms() throws {
        #expect(try ConfigDecoder.autoAnswer("off") == .off)
        #expect(try ConfigDecoder.autoAnswer("on") == .on)
        #expect(try ConfigDecoder.autoAnswer("0") == .on)
        #expect(try ConfigDecoder.autoAnswer("5") == .after(seconds: 5))
        #expect(throws: ConfigValueError.self) { try ConfigDecoder.autoAnswer("soon") }
        #expect(throws: ConfigValueError.self) { try ConfigDecoder.autoAnswer("-1") }
    }

    @Test func sourcesDefaultToTheURLHost() throws {
        let config = try parseConfig("""
        [panel a]
        url = http://192.168.1.50
        [panel b]
        url = http://[fd00::5]:8080/cgi
        [panel c]
        url = http://door.local
        [panel d]
        url = http://192.168.1.51
        source = 10.0.0.5, [fd00::6]
        match =
        """).config
        // An empty match takes every call that comes from the panel's addresses.
        #expect(config.panels.map(\.match) == [[], [], [], []])
        #expect(config.panels.map(\.sourceAddresses) == [["192.168.1.50"], ["fd00::5"], ["door.local"], ["10.0.0.5", "fd00::6"]])
        #expect(config.panels.map(\.autoOpenInterval) == [5, 5, 5, 5])
    }

    @Test func panelsKeepFileOrderAndLookup() throws {
        let config = try parseConfig("""
        [panel z]
        url = http://10.0.0.9
        [panel a]
        url = http://10.0.0.1
        match = sip:1@
        """).config
        #expect(config.panels.map(\.name) == ["z", "a"])
        #expect(config.panel(named: "A")?.name == "a")
        let directory = CallerDirectory(panels: config.panels, registrarHosts: [], rejectStrangers: true) { _ in [] }
        #expect(directory.identify(from: "sip:1@10.0.0.1", contactHost: nil, source: "10.0.0.1") == .panel("a", route: .direct))
        #expect(directory.identify(from: "sip:2@10.0.0.9", contactHost: nil, source: "10.0.0.9") == .panel("z", route: .direct))
        #expect(directory.identify(from: "sip:3@x", contactHost: nil, source: "10.0.0.3") == .stranger)
    }

    @Test func hooksAndJournal() throws {
        let config = try parseConfig("""
        [journal]
        keep_days = 7
        max_mb = 50
        path = ~/intercom-journal
        [hooks]
        on_call_incoming = /usr/local/bin/notify
        on_door_opened =
        on_error = ~/bin/alert
        """).config
        #expect(config.journal == JournalSettings(keepDays: 7, maxMB: 50, path: "/home/u/intercom-journal"))
        #expect(config.hooks == ["call_incoming": "/usr/local/bin/notify", "error": "/home/u/bin/alert"])
    }

    @Test func unknownSectionsAndKeysWarn() throws {
        let loaded = try parseConfig("""
        [sip]
        listen = udp:127.0.0.1:0

        [panel gate]
        url = http://10.0.0.2
        fsp = 3
        [video]
        size = big
        [hooks]
        on_lunch = /bin/true
        notify = /bin/true
        """)
        #expect(loaded.warnings.map(\.description) == [
            "config.ini:6: unknown key 'fsp' in [panel gate] (ignored)",
            "config.ini:7: unknown section [video] (ignored)",
            "config.ini:10: unknown event 'lunch' in key 'on_lunch' in [hooks] (ignored)",
            "config.ini:11: unknown key 'notify' in [hooks] (ignored)",
        ])
        #expect(loaded.warnings[0].key == "fsp")
        #expect(loaded.warnings[0].line == 6)
    }

    @Test(arguments: [
        ("[sip]\nlisten = 127.0.0.1:5060", 2, "listen", "unknown transport"),
        ("[sip]\nlisten = udp:127.0.0.1", 2, "listen", "has no port"),
        ("[sip]\nlisten = udp:127.0.0.1:70000", 2, "listen", "invalid port"),
        ("[sip]\nlisten = udp::5060", 2, "listen", "empty host"),
        ("[sip]\nlisten = udp:127.0.0.1:5060,,tcp:1.2.3.4:5", 2, "listen", "empty item"),
        ("[sip]\nlisten =", 2, "listen", "at least one"),
        ("[sip]\nunknown_callers = maybe", 2, "unknown_callers", "reject | accept"),
        ("[sip]\n\npassword = x", 3, "password", "no 'account'"),
        ("[sip]\nproxy = sip:p.example.org", 2, "proxy", "no 'account'"),
        ("[sip]\naccount = 101@pbx", 2, "account", "not a sip: URI"),
        ("[sip]\nlisten = udp:0.0.0.0:5060, tls:0.0.0.0:5061", 2, "listen", "cannot take incoming SIP over TLS"),
        ("[sip]\naccount = sip:101:s3cret@pbx", 2, "account", "must not contain a password"),
        ("[sip]\naccount = sip:101@pbx\nproxy = sips:u:s3cret@pbx", 3, "proxy", "must not contain a password"),
        ("[sip]\naccount = 101:s3cret@pbx", 2, "account", "'101:***@pbx' is not a sip: URI"),
        ("[sip]\ntls_key = /k.pem", 2, "tls_key", "'tls_cert' is not"),
        ("[sip]\nmedia_encryption = zrtp", 2, "media_encryption", "none | srtp | srtp_mandatory"),
        ("[sip]\nring_timeout = soon", 2, "ring_timeout", "whole number"),
        ("[sip]\nmedia_timeout = 0", 2, "media_timeout", "from 1 to 3600"),
        ("[sip x]", 1, nil, "takes no name"),
        ("[panel]\nurl = http://a", 1, nil, "needs a name"),
        ("[panel a]\nurl = http://1.2.3.4\n[panel A]\nurl = http://1.2.3.5", 3, nil, "already used on line 1"),
        ("[panel a]\nuser = x", 1, "url", "is missing"),
        ("[panel a]\nurl = ftp://x", 2, "url", "http:// or https://"),
        ("[panel a]\nurl = http://", 2, "url", "no host"),
        ("[panel a]\nurl = http://admin:pw@1.2.3.4", 2, "url", "must not contain a user"),
        ("[panel a]\nurl = http://1.2.3.4\nmodel = x", 3, "model", "auto | dks | ds"),
        ("[panel a]\nurl = http://1.2.3.4\nmatch = door", 3, "match", "neither a sip: URI prefix nor an IP"),
        ("[panel a]\nurl = http://1.2.3.4\nmatch = 300.1.1.1", 3, "match", "neither"),
        ("[panel a]\nurl = http://1.2.3.4\ndtmf.main = 1E", 3, "dtmf.main", "0-9, *, # and A-D"),
        ("[panel a]\nurl = http://1.2.3.4\ndtmf.alt = #", 3, "dtmf.alt", "is empty"),
        ("[panel a]\nurl = http://1.2.3.4\ndtmf.repeat = 11", 3, "dtmf.repeat", "from 1 to 10"),
        ("[panel a]\nurl = http://1.2.3.4\ndtmf.duration_ms = x", 3, "dtmf.duration_ms", "whole number"),
        ("[panel a]\nurl = http://1.2.3.4\ndtmf.gap_ms = -1", 3, "dtmf.gap_ms", "whole number"),
        ("[panel a]\nurl = http://1.2.3.4\nopen = door", 3, "open", "http | dtmf | both"),
        ("[panel a]\nurl = http://1.2.3.4\npeephole_fps = 0", 3, "peephole_fps", "above 0"),
        ("[panel a]\nurl = http://1.2.3.4\npeephole_fps = 31", 3, "peephole_fps", "at most 30"),
        ("[panel a]\nurl = http://1.2.3.4\npeephole_fps = nan", 3, "peephole_fps", "frame rate"),
        ("[panel a]\nurl = http://1.2.3.4\ncalls = sometimes", 3, "calls", "on or off"),
        ("[panel a]\nurl = http://1.2.3.4\nauto_answer = later", 3, "auto_answer", "delay in seconds"),
        ("[panel a]\nurl = http://1.2.3.4\nguest_until = tomorrow", 3, "guest_until", "not a time"),
        ("[panel a]\nurl = http://1.2.3.4\nguest_until = 2026-02-30 10:00", 3, "guest_until", "not a time"),
        ("[panel a]\nurl = http://1.2.3.4\ntls_insecure = maybe", 3, "tls_insecure", "on or off"),
        ("[panel a]\nurl = http://1.2.3.4\nca_file = ca.pem", 3, "ca_file", "absolute path"),
        ("[panel a]\nurl = http://1.2.3.4\nstream = hd", 3, "stream", "main or sub"),
        ("[panel a]\nurl = http://1.2.3.4\ndial = 100001@1.2.3.4", 3, "dial", "not a sip: URI"),
        ("[panel a]\nurl = http://1.2.3.4\nsource = door.local", 3, "source", "not an IP address"),
        ("[panel a]\nurl = http://1.2.3.4\nauto_open_interval = -1", 3, "auto_open_interval", "seconds from 0"),
        ("[daemon]\nsocket = run/ic.sock", 2, "socket", "absolute path"),
        ("[daemon]\nsocket = /\(String(repeating: "x", count: 120))", 2, "socket", "107 bytes"),
        ("[journal]\nkeep_days = 0", 2, "keep_days", "from 1"),
        ("[journal]\nmax_mb = lots", 2, "max_mb", "whole number"),
        ("[journal]\npath = data", 2, "path", "absolute path"),
        ("[hooks]\non_call_incoming = notify-send", 2, "on_call_incoming", "absolute path"),
    ])
    func valueErrorsNameLineAndKey(text: String, line: Int, key: String?, fragment: String) {
        guard let error = configError(text) else { return }
        #expect(error.file == "config.ini")
        #expect(error.line == line, "\(error.description)")
        #expect(error.key == key, "\(error.description)")
        #expect(error.description.hasPrefix("config.ini:\(line): " + (key.map { "key '\($0)'" } ?? "")),
                "\(error.description)")
        #expect(error.description.contains(fragment), "\(error.description)")
        #expect(!error.description.contains("\n"))
        #expect(error.exitCode == 65)
    }

    @Test func errorsDoNotLeakPasswords() {
        let error = configError("[sip]\npassword = hunter2")
        #expect(error?.description.contains("hunter2") == false)
        let url = configError("[panel a]\nurl = http://admin:hunter2@1.2.3.4")
        #expect(url?.description.contains("hunter2") == false)
    }

    @Test func sipHomeEnvironmentMissing() {
        let error = configError("[daemon]\nsocket = ~/x.sock", environment: [:])
        #expect(error?.description.contains("HOME is not set") == true)
    }
}
