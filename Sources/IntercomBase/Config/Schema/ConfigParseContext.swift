import Foundation

/// What a value parser may need besides the text: `~`/`$VAR` expansion and the local time zone.
struct ConfigParseContext {
    let expander: PathExpander
    let timeZone: TimeZone
}
