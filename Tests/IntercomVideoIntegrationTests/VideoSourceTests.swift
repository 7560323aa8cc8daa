@testable import IntercomVideo
import Testing

/// The password travels to FFmpeg only inside the URL it opens, and never into a message.
@Suite
struct VideoSourceTests {
    @Test("the display name carries no credentials and no query")
    func displayName() {
        let source = VideoSource(url: "rtsp://admin:secret@10.0.0.5:554/av0_0?token=abc", user: "admin", password: "pw")
        #expect(source.displayName == "rtsp://10.0.0.5:554/av0_0")
    }

    @Test("credentials are percent-encoded into the URL FFmpeg opens")
    func encodedCredentials() throws {
        let source = VideoSource(url: "rtsp://10.0.0.5:554/av0_0", user: "ad min", password: "p@ss:w/rd%?#й")
        let url = try source.urlForFFmpeg()
        #expect(url == "rtsp://ad%20min:p%40ss%3Aw%2Frd%25%3F%23%D0%B9@10.0.0.5:554/av0_0")
    }

    @Test("no user leaves the URL as it is")
    func noUser() throws {
        #expect(try VideoSource(url: "rtsp://10.0.0.5/av0_1").urlForFFmpeg() == "rtsp://10.0.0.5/av0_1")
    }

    @Test("a URL without a scheme or host is bad data, exit 65")
    func notAURL() {
        #expect(throws: VideoError.self) { try VideoSource(url: "10.0.0.5/av0_0").urlForFFmpeg() }
        do {
            _ = try VideoSource(url: "not a url").urlForFFmpeg()
            Issue.record("expected an error")
        } catch {
            #expect(error.exitCode == 65)
        }
    }
}
