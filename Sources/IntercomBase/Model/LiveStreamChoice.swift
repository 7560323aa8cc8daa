/// Which of a panel's camera streams a view plays: the main one for a whole window, the sub
/// stream for the kiosk's small tiles.
public enum LiveStreamChoice: Sendable {
    case main, sub
}
