import IntercomBase
import IntercomPanel
import Testing

/// The panels' syslog lines, table by table: the framings the panels send, and the Beward messages
/// SmartYard-Server's event services match (BewardService.js, BewardServiceDS.js, its plog call task).
@Suite struct BewardSyslogLineTests {
    /// RFC 3164 and RFC 5424 as SmartYard's parseSyslogMessage.js reads them, and a bare message.
    @Test(arguments: [
        ("<14>Jul 28 15:51:52 DKS15122 UART[895]: Main door button pressed", "Main door button pressed"),
        ("<14>Jul  8 05:01:02 192.168.1.50 intercom: Opening door by RFID 00000033753EFB, apartment 0",
         "Opening door by RFID 00000033753EFB, apartment 0"),
        ("<134>1 2024-09-24T23:08:12.580+03:00 dks beward 895 - - Calling sip:12@192.168.13.60:5060 through account 0(0)...",
         "Calling sip:12@192.168.13.60:5060 through account 0(0)..."),
        ("<134>1 2024-09-24T23:08:12Z dks beward 895 ID47 [exampleSDID@32473 iut=\"3\" x=\"a\\]b\"] CMS handset talk started for apartment 12",
         "CMS handset talk started for apartment 12"),
        ("Additional door button pressed\n", "Additional door button pressed"),
        ("<134>1 2024-09-24T23:08:12Z dks beward - - - \u{FEFF}Main door button pressed", "Main door button pressed"),
    ])
    func framingsLeaveTheMessage(datagram: String, message: String) {
        #expect(SyslogFrame.message(of: Array(datagram.utf8)) == message)
    }

    @Test func controlCharactersAreDroppedAndDatagramsCut() {
        let forged = "<14>Jul 28 15:51:52 dks app: Main door\u{1B}[2J button\r\n pressed\u{202E}"
        #expect(SyslogFrame.message(of: Array(forged.utf8)) == "Main door[2J button pressed")
        let long = Array(("<14>Jul 28 15:51:52 dks app: " + String(repeating: "A", count: 5000)).utf8)
        #expect((SyslogFrame.message(of: long)?.utf8.count ?? 0) < SyslogFrame.maximumBytes)
        #expect(SyslogFrame.message(of: Array("<14>Jul 28 15:51:52 dks app: \u{07}\u{07}".utf8)) == nil)
        #expect(SyslogFrame.message(of: [0xFF, 0xFE]) == "\u{FFFD}\u{FFFD}")
    }

    @Test(arguments: [
        ("Opening door by RFID 00000033753efb, apartment 12", BewardSyslogLine.doorOpened(by: .key, door: .main, key: "00000033753EFB", flat: "12")),
        ("Opening door by external RFID 0A1B2C, apartment 0", .doorOpened(by: .key, door: .alt, key: "0A1B2C", flat: nil)),
        ("Opening door by code 77777, apartment 12", .doorOpened(by: .code, door: .main, key: nil, flat: "12")),
        ("Main door button pressed", .doorOpened(by: .button, door: .main, key: nil, flat: nil)),
        ("Additional door button pressed", .doorOpened(by: .button, door: .alt, key: nil, flat: nil)),
        ("Opening door by CMS handset for apartment 12", .doorOpened(by: .handset, door: .main, key: nil, flat: "12")),
        ("[61255] Opening door by DTMF command for apartment 12", .doorOpened(by: .dtmf, door: .main, key: nil, flat: "12")),
        ("[61255] Calling sip:12@192.168.13.60:5060 through account 0(0)...", .calling(flat: "12", via: "sip")),
        ("CMS handset call started for apartment 12", .calling(flat: "12", via: "cms")),
        ("CMS handset talk started for apartment 12.", .answeredOnHandset(flat: "12")),
        ("All calls are done for apartment [12]", .callsDone(flat: "12")),
        ("EVENT:3:Main door button pressed", .doorOpened(by: .button, door: .main, key: nil, flat: nil)),
    ])
    func realLinesBecomeWhatTheySay(message: String, line: BewardSyslogLine) {
        #expect(BewardSyslogLine.parse(message) == line)
    }

    /// Lines no one reads, and look-alikes that must not open a door in the journal.
    @Test(arguments: [
        "SS_MAINAPI_ReportAlarmHappen",
        "Incoming DTMF RFC2833 on call 4",
        "[61255] SIP call 4 state changed to CALLING",
        "Opening door by RFID , apartment 1",
        "Opening door by RFID ZZZZ, apartment 1",
        "Calling sip:12@192.168.13.60:5060",
        "Calling to 12 flat...",
        "CMS handset talk started for apartment",
        "Someone said Main door button pressed",
        "",
    ])
    func otherLinesAreNothing(message: String) {
        #expect(BewardSyslogLine.parse(message) == nil)
    }

    /// A code's digits are never kept: only that the code was used, and the flat.
    @Test func theCodeItselfIsNotKept() {
        guard case .doorOpened(_, _, let key, _)? = BewardSyslogLine.parse("Opening door by code 12345, apartment 7") else {
            Issue.record("not read as an opening")
            return
        }
        #expect(key == nil)
    }
}
