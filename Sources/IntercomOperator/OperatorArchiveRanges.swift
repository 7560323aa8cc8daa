import Foundation
import IntercomBase

/// What a camera's recording keeps (`cctv/ranges`, server/mobile/cctv/ranges.php, which the server
/// answers for every DVR: Flussonic's `recording_status.json`, or Nimble's timeline in its shape):
/// `[{stream, ranges: [{from, duration}]}]`, unix seconds. The pieces are merged where they touch,
/// so a gap is a time no piece covers.
public struct OperatorArchiveRanges: Sendable, Equatable {
    public struct Piece: Sendable, Equatable {
        public var from: Date
        public var to: Date

        public init(from: Date, to: Date) {
            self.from = from
            self.to = to
        }
    }

    /// Oldest first, none overlapping or touching.
    public var pieces: [Piece]

    /// Pieces closer than this are one: Flussonic splits a recording where a segment was late.
    static let join: TimeInterval = 1

    public init(_ pieces: [Piece]) {
        var merged: [Piece] = []
        for piece in pieces.filter({ $0.to > $0.from }).sorted(by: { $0.from < $1.from }) {
            if let last = merged.last, piece.from.timeIntervalSince(last.to) <= Self.join {
                merged[merged.count - 1].to = max(last.to, piece.to)
            } else {
                merged.append(piece)
            }
        }
        self.pieces = merged
    }

    /// The server's answer; nil data (a 204, or the DVR said nothing) is nothing kept; nil for another shape.
    static func parse(_ data: JSONValue?) -> OperatorArchiveRanges? {
        guard let data else { return OperatorArchiveRanges([]) }
        guard let streams = data.arrayValue else { return nil }
        return OperatorArchiveRanges(streams.flatMap { stream in
            (stream["ranges"]?.arrayValue ?? []).compactMap { range -> Piece? in
                guard let from = range["from"]?.looseString.flatMap(Double.init), let duration = range["duration"]?.looseString.flatMap(Double.init) else { return nil }
                let start = Date(timeIntervalSince1970: from)
                return Piece(from: start, to: start.addingTimeInterval(duration))
            }
        })
    }

    /// Where `moment` falls: in a piece, or in a gap with the time the recording resumes (nil: nothing after).
    public enum Place: Sendable, Equatable {
        case recorded
        case gap(resumes: Date?)
    }

    public func place(_ moment: Date) -> Place {
        if pieces.contains(where: { $0.from <= moment && moment < $0.to }) { return .recorded }
        return .gap(resumes: pieces.first { $0.from > moment }?.from)
    }

    /// How close to `now` the last piece may end and still be the recording going on: the DVR lists a
    /// piece only up to its last finished segment, so the seconds before now are kept though not yet
    /// listed (`watch --at` a few seconds back was refused so, seen in make test).
    static let liveEdge: TimeInterval = 120

    /// The one line for a recording asked for `from`…`to` (`what`: "camera home:cam:1") of which nothing
    /// is kept: where the recording resumes, or when it last ended. Nil when some of it is kept, when
    /// the server says nothing is kept at all (it may not know), or when the asked time is after a last
    /// piece that ended within `liveEdge` of `now` (still recording).
    public func gapLine(_ what: String, from: Date, to: Date, now: Date = Date()) -> String? {
        guard !pieces.isEmpty, case .gap(let resumes) = place(from) else { return nil }
        if resumes == nil, let last = pieces.last, now.timeIntervalSince(last.to) < Self.liveEdge { return nil }
        let asked = LocalTime(from).dateAndClock
        if let resumes {
            guard resumes >= to else { return nil }
            return "\(what) has no recording at \(asked); the recording resumes at \(LocalTime(resumes).dateAndClock) "
                + "(see 'intercom cameras --ranges')"
        }
        let end = pieces.last.map { LocalTime($0.to).dateAndClock } ?? asked
        return "\(what) has no recording at \(asked); its last recording ended at \(end) (see 'intercom cameras --ranges')"
    }

    /// When `from` falls in a gap but the recording resumes before `to`: where it resumes, in words.
    public func resumesWithin(from: Date, to: Date) -> String? {
        guard case .gap(let resumes?) = place(from), resumes < to else { return nil }
        return "the recording resumes at \(LocalTime(resumes).dateAndClock)"
    }
}
