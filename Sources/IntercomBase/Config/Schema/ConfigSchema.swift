/// The config schema as one table: every section and key with its parser, default, SIGHUP
/// behaviour, example lines and reference text. The decoder (`ConfigDecoder`), the example
/// (`ConfigExample`), SIGHUP (`ConfigReloadPlan`) and docs/CONFIG.md (`ConfigReference`) are all
/// made from it, so a key cannot be known to one and missing from another.
enum ConfigSchema {
    /// In the order of the example and the reference.
    static var sections: [any AnyConfigSection] { builders.map { $0.build() } }

    /// Every section's kind with the function that builds its table, in that order: a table is built
    /// alone (`section`), since building all ten (their keys' key paths and closures) was a third of a
    /// light command's config reading and a file names only a few.
    private static let builders: [(kind: String, build: @Sendable () -> any AnyConfigSection)] = [
        ("sip", { sip }), ("audio", { audio }), ("panel", { panel }), ("operator", { `operator` }),
        ("directory", { directory }), ("mqtt", { mqtt }), ("notify", { notify }), ("daemon", { daemon }),
        ("journal", { journal }), ("hooks", { hooks }),
    ]

    /// Every section's kind, in that order.
    static let kinds = builders.map(\.kind)

    /// One section's table, built alone; nil for a kind the table has not.
    static func section(_ kind: String) -> (any AnyConfigSection)? {
        builders.first { $0.kind == kind }?.build()
    }

    /// The example's opening comment.
    static let examplePreamble = [
        "# intercom configuration — ~/.config/intercom/config.ini",
        "# INI: [section] or [section name], key = value. '#' or ';' after a space starts",
        "# a comment; put a value in double quotes to keep a '#', ';' or edge spaces in it.",
        "# If this file holds a password it must not be readable by others: chmod 600 it.",
    ]
}
