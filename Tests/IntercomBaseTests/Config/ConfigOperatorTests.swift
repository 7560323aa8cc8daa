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
