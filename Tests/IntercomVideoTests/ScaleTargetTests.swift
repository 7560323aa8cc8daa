import IntercomImaging
@testable import IntercomVideo
import Testing

/// The size a stream's frames come out at, for what the viewer asked.
@Suite("Scale target")
struct ScaleTargetTests {
    @Test func withinKeepsTheShapeInsideTheBoxAndNeverEnlarges() {
        let target = ScaleTarget(PixelSize(width: 160, height: 96), fit: .within)
        #expect(target.output(width: 640, height: 480, sampleAspect: 1) == PixelSize(width: 128, height: 96))
        #expect(target.output(width: 1280, height: 720, sampleAspect: 1) == PixelSize(width: 160, height: 90))
        // Non-square pixels (PAL 704×576 shown as 4:3): the shown shape counts.
        #expect(target.output(width: 704, height: 576, sampleAspect: 12.0 / 11.0) == PixelSize(width: 128, height: 96))
        target.set(PixelSize(width: 2000, height: 2000))
        #expect(target.output(width: 352, height: 288, sampleAspect: 0) == PixelSize(width: 352, height: 288))
    }

    @Test func exactlyStretches() {
        let target = ScaleTarget(PixelSize(width: 32, height: 32), fit: .exactly)
        #expect(target.output(width: 640, height: 480, sampleAspect: 1) == PixelSize(width: 32, height: 32))
    }
}
