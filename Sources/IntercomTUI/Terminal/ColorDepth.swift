/// How many colours cell output may use; picked from COLORTERM/TERM because terminals
/// that get 24-bit SGR they don't understand show garbage, not approximations.
public enum ColorDepth: String, Sendable, Equatable {
    case truecolor, indexed256, indexed16, none
}
