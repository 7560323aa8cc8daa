import Foundation
import IntercomOperator
import Testing

/// The Flussonic shapes of an operator camera's live stream, archive and preview.
@Suite struct OperatorCameraURLTests {
    let camera = OperatorCamera(id: "7", name: "Gate", url: "https://dvr.example.org/cam7/", token: "t/k+n", serverType: "flussonic")

    @Test func liveArchiveAndPreviewCarryTheToken() throws {
        let urls = try OperatorCameraURL.of(camera).get()
        #expect(urls.live == "https://dvr.example.org/cam7/index.m3u8?token=t%2Fk%2Bn")
        let from = Date(timeIntervalSince1970: 1_700_000_000.7)
        #expect(urls.archive(from: from, seconds: 600) == "https://dvr.example.org/cam7/index-1700000000-600.m3u8?token=t%2Fk%2Bn")
        #expect(urls.preview() == "https://dvr.example.org/cam7/preview.mp4?token=t%2Fk%2Bn")
        #expect(urls.preview(at: from) == "https://dvr.example.org/cam7/1700000000-preview.mp4?token=t%2Fk%2Bn")
    }

    @Test func fmp4ModeAndNoToken() throws {
        var fmp4 = camera
        fmp4.hlsMode = "fmp4"
        fmp4.token = nil
        let urls = try OperatorCameraURL.of(fmp4).get()
        #expect(urls.live == "https://dvr.example.org/cam7/index.fmp4.m3u8")
        #expect(urls.archive(from: Date(timeIntervalSince1970: 10), seconds: 0) == "https://dvr.example.org/cam7/index-10-1.fmp4.m3u8")
    }

    @Test func anotherServerOrNoURLIsOneClearLine() {
        var nimble = camera
        nimble.serverType = "nimble"
        #expect(OperatorCameraURL.of(nimble) == .failure(.unsupportedServer(camera: "Gate", serverType: "nimble")))
        #expect("\(OperatorCameraURLProblem.unsupportedServer(camera: "Gate", serverType: "nimble"))"
                == "camera \"Gate\": its video server (nimble) is not supported yet; only Flussonic is")
        var none = camera
        none.url = nil
        #expect(OperatorCameraURL.of(none) == .failure(.noStream(camera: "Gate")))
        var unset = camera
        unset.serverType = nil
        #expect((try? OperatorCameraURL.of(unset).get()) != nil, "Flussonic is the default DVR")
    }
}
