import Testing
@testable import IntercomBase
@testable import IntercomHTTP
import IntercomTestSupport

@Suite struct ConfigINIParserTests {
    let parser = INIParser(file: "config.ini")

    @Test func sectionsKeysAndLines() throws {
        let document = try parser.parse("""
        # comment
        ; another

        [sip]
        listen = udp:127.0.0.1:5060
        [panel entrance]
        dtmf.main = 1
        """)
        #expect(document.sections.count == 2)
        #expect(document.sections[0].kind == "sip")
        #expect(document.sections[0].name == nil)
        #expect(document.sections[0].line == 4)
        #expect(document.sections[0].entries == [INIEntry(key: "listen", value: "udp:127.0.0.1:5060", line: 5)])
        #expect(document.sections[1].kind == "panel")
        #expect(document.sections[1].name == "entrance")
        #expect(document.sections[1].entries[0].key == "dtmf.main")
        #expect(document.sections[1].entries[0].line == 7)
    }

    @Test func inlineCommentsNeedWhitespaceBefore() throws {
        let document = try parser.parse("""
        [s]
        listen = udp:127.0.0.1:5060      # comment
        proxy = sip:pbx.example.org;transport=tcp
        code = 1#
        semi = a ;b
        empty =        # nothing here
        direct =# also nothing
        """)
        let values = document.sections[0].entries.map(\.value)
        #expect(values == ["udp:127.0.0.1:5060", "sip:pbx.example.org;transport=tcp", "1#", "a", "", ""])
    }

    @Test func quotedValuesKeepCommentCharactersAndSpaces() throws {
        let document = try parser.parse(#"""
        [s]
        password = "a #b"   # trailing comment
        semi = "x;y"
        spaces = "  lead"
        escaped = "say \"hi\" \\ ok"
        hash = "#"
        """#)
        let entries = document.sections[0].entries
        #expect(entries.map(\.value) == ["a #b", "x;y", "  lead", #"say "hi" \ ok"#, "#"])
        #expect(entries.allSatisfy { $0.quoted })
    }

    @Test func headerWithTrailingCommentAndCRLF() throws {
        let document = try parser.parse("[hooks]   # programs\r\non_error = /bin/true\r\n")
        #expect(document.sections[0].kind == "hooks")
        #expect(document.sections[0].entries[0].value == "/bin/true")
        #expect(document.sections[0].entries[0].line == 2)
    }

    @Test(arguments: [
        ("[sip]\nlisten", 2, nil as String?, "not 'key = value'"),
        ("[sip\nlisten = x", 1, nil, "no closing ']'"),
        ("[sip]\n = x", 2, nil, "empty key"),
        ("[sip]\n[audio]\n[sip]", 3, nil, "appears twice (first on line 1)"),
        ("[sip]\na = 1\n\na = 2", 4, "a", "set twice (first on line 2)"),
        ("a = 1", 1, "a", "outside any [section]"),
        ("[]", 1, nil, "empty section header"),
        ("[sip] x", 1, nil, "text after the section header"),
        ("[s]\npassword = \"abc", 2, "password", "no closing '\"'"),
        ("[s]\npassword = \"abc\" def", 2, "password", "text after the closing quote"),
        ("[s]\nmy key = 1", 2, "my key", "cannot contain spaces"),
    ])
    func malformedLines(text: String, line: Int, key: String?, fragment: String) {
        do {
            _ = try parser.parse(text)
            Issue.record("expected an error for \(text)")
        } catch {
            #expect(error.line == line)
            #expect(error.key == key)
            #expect(error.description.hasPrefix("config.ini:\(line): "))
            #expect(error.description.contains(fragment), "\(error.description)")
        }
    }

    @Test func errorsNeverEchoTheLine() {
        do {
            _ = try parser.parse("[sip]\npassword: hunter2")
        } catch {
            #expect(!error.description.contains("hunter2"))
            #expect(error.line == 2)
        }
        do {
            _ = try parser.parse("[sip]\npassword = \"hunter2")
        } catch {
            #expect(!error.description.contains("hunter2"))
        }
    }
}
