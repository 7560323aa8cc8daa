/// What a camera URL's last part asks for, in Flussonic's names.
enum OperatorVideoFile: Equatable {
    /// `index.m3u8`: the live playlist.
    case live
    /// `preview.mp4`: the newest picture.
    case preview
    /// `segment00012.ts`: a segment the playlists name.
    case segment(String)
    /// `index-FROM-DURATION.m3u8`: the recording from FROM (unix seconds), DURATION seconds long.
    case archive(from: Int, seconds: Int)
    /// `FROM-preview.mp4`: the recording's picture at FROM.
    case archivePreview(at: Int)
    /// `archive-FROM-DURATION.mp4`: the recording as one MP4 file (Flussonic's export).
    case archiveMP4(from: Int, seconds: Int)

    init?(_ name: String) {
        switch name {
        case "index.m3u8": self = .live
        case "preview.mp4": self = .preview
        case _ where OperatorCameraPipeline.isSegmentName(name): self = .segment(name)
        case _ where name.hasPrefix("index-") && name.hasSuffix(".m3u8"):
            let numbers = name.dropFirst("index-".count).dropLast(".m3u8".count).split(separator: "-", omittingEmptySubsequences: false)
            guard numbers.count == 2, let from = Int(numbers[0]), let seconds = Int(numbers[1]), from >= 0, seconds > 0 else { return nil }
            self = .archive(from: from, seconds: seconds)
        case _ where name.hasPrefix("archive-") && name.hasSuffix(".mp4"):
            let numbers = name.dropFirst("archive-".count).dropLast(".mp4".count).split(separator: "-", omittingEmptySubsequences: false)
            guard numbers.count == 2, let from = Int(numbers[0]), let seconds = Int(numbers[1]), from >= 0, seconds > 0 else { return nil }
            self = .archiveMP4(from: from, seconds: seconds)
        case _ where name.hasSuffix("-preview.mp4"):
            guard let at = Int(name.dropLast("-preview.mp4".count)), at >= 0 else { return nil }
            self = .archivePreview(at: at)
        default: return nil
        }
    }
}
