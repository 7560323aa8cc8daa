import Testing
@testable import IntercomCLI
import IntercomPanel
import IntercomBase

/// `intercom setup` reads the panel's door digits (`sip_cgi` `DtmfSignal1/2`) into `dtmf.main` /
/// `dtmf.alt` instead of assuming 1 and 2.
@Suite struct SetupDoorDigitsTests {
    @Test func thePanelsDigitsReachTheConfig() {
        let sip = KeyValueBody(parsing: "AccUser1=100001\nDtmfSignal1=5\nDtmfSignal2=2\nDtmfSignal3=3\n")
        let digits = SetupPanelFacts.DoorDigits(sip: sip)
        #expect(digits == .init(main: "5", alt: "2"))
        #expect(digits.described == "main 5, alt 2")
        let panel = SetupCommand.Panel(name: "porch", url: "http://10.0.0.2", user: "admin", password: "admin",
                                       sipUser: "", doorDigits: digits)
        let text = SetupCommand.configText([panel], listen: ListenAddress(transport: .udp, host: "0.0.0.0", port: 5060))
        #expect(text.contains("password = admin\ndtmf.main = 5\n"), "\(text)")
        #expect(!text.contains("dtmf.alt"), "the default alt digit is not written: \(text)")
    }

    @Test func somethingThatIsNotDTMFIsIgnored() {
        let digits = SetupPanelFacts.DoorDigits(sip: KeyValueBody(parsing: "DtmfSignal1=\nDtmfSignal2=open door\n"))
        #expect(digits == .init())
        #expect(digits.described == nil)
    }
}
