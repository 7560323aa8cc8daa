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
        #expect(OperatorCameraURL.of(nimble) == .failure(.unsupportedServer(camera: nimble.id, serverType: "nimble")))
        #expect("\(OperatorCameraURLProblem.unsupportedServer(camera: "3", serverType: "nimble"))"
                == "camera 3 is on a Nimble server; live and export need Flussonic for now")
        for (type, name) in [("macroscop", "Macroscop"), ("trassir", "Trassir"), ("forpost", "Forpost")] {
            var other = camera
            other.serverType = type
            guard case .failure(let problem) = OperatorCameraURL.of(other) else {
                Issue.record("\(type) has no Flussonic URLs")
                continue
            }
            #expect("\(problem)".contains("is on a \(name) server"), "\(problem)")
        }
        // SmartYard's DVR backend gives `sesame` Flussonic's URLs.
        var sesame = camera
        sesame.serverType = "Sesame"
        #expect((try? OperatorCameraURL.of(sesame).get())?.live.hasPrefix("https://dvr.example.org/cam7/index.m3u8") == true)
        var none = camera
        none.url = nil
        #expect(OperatorCameraURL.of(none) == .failure(.noStream(camera: "Gate")))
        var unset = camera
        unset.serverType = nil
        #expect((try? OperatorCameraURL.of(unset).get()) != nil, "Flussonic is the default DVR")
    }
}
