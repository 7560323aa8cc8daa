import Testing
import IntercomPanel
import IntercomImaging
import IntercomHTTP
import IntercomTestSupport
import IntercomBase

@Suite struct PanelKeyValueBodyTests {
    @Test func crlfIsStrippedAndSplitIsOnFirstEquals() {
        let body = KeyValueBody(parsing: "DeviceModel=DKS15120_rev5.2.4.2\r\nUrl=http://x/?a=b&c=d\r\nEmpty=\r\n")
        #expect(body["DeviceModel"] == "DKS15120_rev5.2.4.2")
        #expect(body["Url"] == "http://x/?a=b&c=d")
        #expect(body["Empty"] == "")
        #expect(body.keys == ["DeviceModel", "Url", "Empty"])
    }

    @Test func mixedLineEndingsBlankAndJunkLines() {
        let body = KeyValueBody(parsing: "\r\n\nA=1\nnot a pair\r\n=orphan\r\nB=2\r\nC = 3 \nD=x\r")
        #expect(body.keys == ["A", "B", "C", "D"])
        #expect(body["B"] == "2")
        // Keys are trimmed, values are kept as sent (minus the line end).
        #expect(body["C"] == " 3 ")
        #expect(body["D"] == "x")
        #expect(body["orphan"] == nil)
    }

    @Test func indexedKeysAndDuplicates() {
        let body = KeyValueBody(parsing: "Number1=12\r\nPhone1_1=100\r\nPhone1_2=\r\nNumber1=13\r\n")
        #expect(body["Phone1_1"] == "100")
        #expect(body["Number1"] == "12")
        #expect(body.pairs.count == 4)
    }

    /// Found while writing the keyvalue fuzz target: `=` followed by a combining mark is one
    /// Character, so a split on Characters lost the pair.
    @Test func combiningMarkAfterEqualsKeepsThePair() {
        let body = KeyValueBody(parsing: "A=\u{301}x\r\nB\u{301}=1\r\n")
        #expect(body.keys == ["A", "B\u{301}"])
        #expect(body["A"] == "\u{301}x")
        #expect(body["B\u{301}"] == "1")
    }

    @Test func emptyBody() {
        #expect(KeyValueBody(parsing: "").pairs.isEmpty)
        #expect(KeyValueBody(parsing: "\r\n\r\n").pairs.isEmpty)
    }

    @Test func familyFromDeviceModel() {
        #expect(PanelFamily(deviceModel: "DKS15105_rev5.5.6.8.5") == .dks)
        #expect(PanelFamily(deviceModel: "DS06M") == .ds)
        #expect(PanelFamily(deviceModel: "DK103M_rev1") == .ds)
        #expect(PanelFamily(deviceModel: "ALP-600") == .ds)
        #expect(PanelFamily(deviceModel: "dks977957") == .dks)
        #expect(PanelFamily(deviceModel: "SomethingElse") == nil)
    }

    @Test func doorSpelling() {
        #expect(Door("main") == .main)
        #expect(Door("ALT") == .alt)
        #expect(Door("light") == .light)
        #expect(Door("3") == .output(3))
        #expect(Door("-1") == nil)
        #expect(Door("garage") == nil)
    }
}
