import Foundation

/// What a value parser may need besides the text: `~`/`$VAR` expansion and the local time zone.
struct ConfigParseContext {
    let expander: PathExpander
    /// Nil: the process's zone, read when a value needs it.
    let zone: TimeZone?

    var timeZone: TimeZone { zone ?? .current }
}
