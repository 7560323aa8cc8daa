import Foundation
import IntercomBase
@testable import IntercomOperator
import Testing

/// `cctv/ranges` (server/mobile/cctv/ranges.php: the DVR's `recording_status.json`) read into the
/// pieces a camera keeps: touching pieces are one, and a time in a gap says where the recording resumes.
@Suite struct OperatorArchiveRangesTests {
    static func at(_ seconds: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }

    static let answer = JSONValue.parse(#"[{"stream":"cam1","ranges":[{"from":1000,"duration":100},{"from":1100,"duration":"50"},{"from":2000,"duration":60}]}]"#)

    @Test func piecesThatTouchAreOne() throws {
        let ranges = try #require(OperatorArchiveRanges.parse(Self.answer))
        #expect(ranges.pieces == [.init(from: Self.at(1000), to: Self.at(1150)), .init(from: Self.at(2000), to: Self.at(2060))])
        #expect(OperatorArchiveRanges.parse(nil)?.pieces == [])
        #expect(OperatorArchiveRanges.parse(.object([("stream", .string("x"))])) == nil)
    }

    @Test func aTimeInAGapSaysWhereTheRecordingResumes() throws {
        let ranges = try #require(OperatorArchiveRanges.parse(Self.answer))
        #expect(ranges.place(Self.at(1149)) == .recorded)
        #expect(ranges.place(Self.at(1500)) == .gap(resumes: Self.at(2000)))
        #expect(ranges.place(Self.at(500)) == .gap(resumes: Self.at(1000)))
        #expect(ranges.place(Self.at(3000)) == .gap(resumes: nil))
        let line = try #require(ranges.gapLine("camera home:cam:1", from: Self.at(1500), to: Self.at(1600)))
        #expect(line.hasPrefix("camera home:cam:1 has no recording at \(LocalTime(Self.at(1500)).dateAndClock)"), "\(line)")
        #expect(line.contains("the recording resumes at \(LocalTime(Self.at(2000)).dateAndClock)") && !line.contains("\n"), "\(line)")
        #expect(ranges.gapLine("camera home:cam:1", from: Self.at(3000), to: Self.at(3100))?.contains("its last recording ended at") == true)
        #expect(ranges.gapLine("camera home:cam:1", from: Self.at(1010), to: Self.at(1020)) == nil)
        // After a last piece that ended moments ago the camera is still recording: the list lags behind.
        #expect(ranges.gapLine("camera home:cam:1", from: Self.at(2070), to: Self.at(2170), now: Self.at(2100)) == nil)
        // A window the recording resumes in is not refused; where it resumes is said.
        #expect(ranges.gapLine("camera home:cam:1", from: Self.at(1500), to: Self.at(2030)) == nil)
        #expect(ranges.resumesWithin(from: Self.at(1500), to: Self.at(2030)) == "the recording resumes at \(LocalTime(Self.at(2000)).dateAndClock)")
        #expect(ranges.resumesWithin(from: Self.at(1010), to: Self.at(2030)) == nil)
        // Nothing known (a DVR that said nothing): nothing refused.
        #expect(OperatorArchiveRanges([]).gapLine("camera home:cam:1", from: Self.at(1500), to: Self.at(1600)) == nil)
    }
}
