import Testing
@testable import IntercomBase
import IntercomTestSupport

/// `[operator NAME]`: the SmartYard account of a subscriber.
@Suite struct ConfigOperatorTests {
    @Test func operatorSectionsKeepOrderAndNormaliseThePhone() throws {
        let loaded = try parseConfig("""
        [operator home]
        api = https://api.operator.example/mobile/
        phone = 8 (912) 345-67-81

        [operator dacha]
        api = http://127.0.0.1:8090/mobile
        """)
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.config.operators == [
            OperatorConfig(name: "home", api: "https://api.operator.example/mobile", phone: "79123456781"),
            OperatorConfig(name: "dacha", api: "http://127.0.0.1:8090/mobile"),
        ])
        #expect(loaded.config.operator(named: "HOME")?.phone == "79123456781")
    }

    @Test func badOperatorSectionsSayWhatToWrite() {
        #expect(configError("[operator]\napi = https://x/mobile\n")?.message == "an operator needs a name")
        #expect(configError("[operator home]\nphone = 79123456781\n")?.fix == "add 'api = https://OPERATOR-HOST/mobile'")
        #expect(configError("[operator home]\napi = ftp://x\n")?.fix == "e.g. api = https://api.operator.example/mobile")
        #expect(configError("[operator home]\napi = https://x/m\nphone = 12345\n")?.message.contains("11-digit") == true)
        #expect(configError("[operator a]\napi = https://x/m\n[operator A]\napi = https://y/m\n")?.message
                == "operator name already used on line 1")
        // Credentials in the URL would travel where the file-permission rule does not look.
        #expect(configError("[operator home]\napi = https://u:p@x/mobile\n")?.message == "must not contain a user or password")
    }
}

/// `api = http://…` would send the bearer token in clear: only loopback may be plain http.
@Suite struct ConfigOperatorAPITests {
    @Test("http:// to anything but loopback is refused with the key and the fix", arguments: [
        "http://api.operator.example/mobile", "http://192.168.1.10:8080/mobile", "http://10.0.0.1/mobile",
        "http://[2001:db8::1]/mobile", "http://127.example.org/mobile", "HTTP://api.example/mobile",
    ])
    func plainHTTPElsewhereIsRefused(_ api: String) {
        let error = configError("[operator home]\napi = \(api)\n")
        #expect(error?.fix == "use https:// or a loopback address: the token would travel in clear", "\(api): \(String(describing: error))")
        #expect(error?.message.contains("plain http") == true)
        #expect(error?.description.contains("'api'") == true && error?.description.contains("[operator home]") == true,
                "\(String(describing: error?.description))")
    }

    @Test("https anywhere, and http to 127.0.0.0/8, ::1 or localhost, load", arguments: [
        "https://api.operator.example/mobile", "http://127.0.0.1:8090/mobile", "http://127.9.8.7/mobile",
        "http://[::1]:8090/mobile", "http://localhost:8090/mobile", "http://LOCALHOST/mobile",
    ])
    func secureOrLoopbackLoads(_ api: String) throws {
        let loaded = try parseConfig("[operator home]\napi = \(api)\n")
        #expect(loaded.config.operators.first?.api == api)
    }

    @Test("config --check says it in one line and exits 65, as other config errors")
    func configCheckRefuses() async throws {
        let directory = try TestDirectory(prefix: "intercom-operator-api")
        let config = try IntercomBinary.writeConfig("[operator home]\napi = http://api.operator.example/mobile\n", in: directory)
        let result = try await IntercomBinary.run(["config", "--check", "--config", config.path], in: directory)
        #expect(result.status == 65, "\(result)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("key 'api' in [operator home]")
                && lines[0].hasSuffix("use https:// or a loopback address: the token would travel in clear"), "\(result.stderr)")
    }
}
