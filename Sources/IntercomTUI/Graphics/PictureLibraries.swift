import IntercomImaging
import IntercomTerminal

/// The libraries pictures need, loaded when the first one is read or drawn: `doctor` asks here
/// whether they can be, so a missing package is named before a screen stays blank.
public enum PictureLibraries {
    /// One line per library that cannot be loaded, naming the package to install; empty when all can.
    public static var problems: [String] { [JPEG.loadProblem, ChafaCanvas.loadProblem].compactMap { $0 } }
}
