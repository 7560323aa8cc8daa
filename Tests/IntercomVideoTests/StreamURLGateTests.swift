@testable import IntercomVideo
import Testing

/// Which URLs a stream's demuxer may open (`StreamURLGate`), without FFmpeg: the stream's own
/// scheme, host and port only, read as FFmpeg's `av_url_split` reads them.
@Suite struct StreamURLGateTests {
    let gate = StreamURLGate(url: "http://Cams.Example:8080/cam1/index.m3u8?token=secret")

    @Test("the same scheme, host and port pass, the host in any case, crypto-wrapped or not")
    func sameOrigin() {
        for url in ["http://cams.example:8080/cam1/tracks-v1/0.ts",
                    "http://CAMS.EXAMPLE:8080/other/path.ts?token=x#frag",
                    "http://user:pw@cams.example:8080/a.ts",
                    "crypto+http://cams.example:8080/a.ts",
                    "crypto:http://cams.example:8080/a.ts",
                    "http://cams.example:8080"] {
            #expect(gate.refusal(of: url) == nil, "\(url)")
        }
    }

    @Test("another host, port or scheme is refused and named by host and port only")
    func otherAddress() {
        #expect(gate.refusal(of: "http://cams.example:8081/a.ts") == "cams.example:8081")
        #expect(gate.refusal(of: "http://cams.example/a.ts") == "cams.example:80")
        #expect(gate.refusal(of: "http://192.168.1.1:8080/cgi?token=secret") == "192.168.1.1:8080")
        #expect(gate.refusal(of: "https://cams.example:8080/a.ts") == "https://cams.example:8080")
        #expect(gate.refusal(of: "crypto+http://10.0.0.1:8080/key") == "10.0.0.1:8080")
        // The host FFmpeg connects to is the one after the last '@' of the authority.
        #expect(gate.refusal(of: "http://cams.example:8080@10.0.0.1:8080/a.ts") == "10.0.0.1:8080")
        #expect(gate.refusal(of: "http://[::1]:8080/a.ts") == "[::1]:8080")
        #expect(gate.refusal(of: "http://cams.example.:8080/a.ts") != nil, "a look-alike is not the same name")
    }

    @Test("default ports: a URL without a port is on the scheme's own")
    func defaultPorts() {
        let plain = StreamURLGate(url: "http://cams.example/cam1/index.m3u8")
        #expect(plain.refusal(of: "http://cams.example:80/a.ts") == nil)
        #expect(plain.refusal(of: "http://cams.example:8080/a.ts") == "cams.example:8080")
        let secure = StreamURLGate(url: "https://cams.example:443/cam1/index.m3u8")
        #expect(secure.refusal(of: "https://cams.example/a.ts") == nil)
        #expect(secure.refusal(of: "http://cams.example/a.ts") == "http://cams.example:80")
        #expect(StreamAddress("rtsp://panel/stream").port == 554)
        // FFmpeg reads a port with atoi: "8080abc" is 8080.
        #expect(StreamAddress("http://cams.example:8080abc/").port == 8080)
    }

    @Test("local files and FFmpeg's reading protocols are refused by scheme")
    func localAndOtherSchemes() {
        #expect(gate.refusal(of: "file:///etc/passwd") == "a file: URL")
        #expect(gate.refusal(of: "/etc/passwd") == "a local file")
        #expect(gate.refusal(of: "concat:http://cams.example:8080/a.ts|/etc/passwd") == "a concat: URL")
        #expect(gate.refusal(of: "subfile,,start,0,end,100,,:/etc/passwd") == "a subfile: URL")
        #expect(gate.refusal(of: "data:video/mp2t;base64,AAAA") == "a data: URL")
        #expect(gate.refusal(of: "pipe:0") == "a pipe: URL")
        #expect(gate.refusal(of: "crypto+file:///etc/passwd") == "a file: URL")
        #expect(gate.refusal(of: "crypto+crypto+http://cams.example:8080/a.ts") != nil)
        #expect(gate.refusal(of: "hls+http://cams.example:8080/a.m3u8") != nil)
    }

    @Test("a redirect of the stream's own URL admits the address it went to, and only that")
    func redirect() {
        var gate = self.gate
        gate.admitRedirect(to: "http://node2.example:8080/cam1/index.m3u8?token=secret")
        #expect(gate.refusal(of: "http://node2.example:8080/cam1/0.ts") == nil)
        #expect(gate.refusal(of: "http://cams.example:8080/cam1/0.ts") == nil)
        #expect(gate.refusal(of: "http://node3.example:8080/cam1/0.ts") == "node3.example:8080")
        #expect(gate.allowedOrigins == "http://cams.example:8080 or http://node2.example:8080")
    }

    @Test("what a refusal shows of a hostile host is escaped and short")
    func hostileHost() {
        let refusal = gate.refusal(of: "http://evil\u{1B}]0;title\u{07}host:9/a.ts") ?? ""
        #expect(!refusal.contains("\u{1B}") && !refusal.contains("\u{07}"), "\(refusal)")
        let long = gate.refusal(of: "http://" + String(repeating: "a", count: 500) + ":9/") ?? ""
        #expect(long.count < 100)
    }
}
