import IntercomBase
import IntercomOperator

/// One line of `intercom doors` or `intercom cameras`: an id the other commands take, a name, where
/// it is, and the JSON fields beside `id` and `name`.
struct CatalogEntry: Sendable {
    var id: String
    var name: String
    var fields: [(String, JSONValue)]
    var whereText: String
    /// `cameras --ranges`: what the camera's recording keeps, in words (nil: not asked).
    var recorded: String? = nil

    var json: JSONValue { .object([("id", .string(id)), ("name", .string(name))] + fields) }

    /// The panels' entries, then each logged-in operator's, printed as a table or one JSON array.
    /// An operator that fails is named and the rest still listed; the exit code is its failure's.
    static func list(_ invocation: Invocation, noun: String, panel: (PanelConfig) -> [CatalogEntry],
                     operatorItems: (OperatorConfig, OperatorClient) async throws(OperatorError) -> [CatalogEntry]) async -> Int32 {
        let config: IntercomConfig
        switch OperatorSelection.config(invocation) {
        case .failure(let failure): return failure.report()
        case .success(let loaded): config = loaded
        }
        var entries = config.panels.flatMap(panel)
        let sweep = await OperatorSweep<CatalogEntry>.run(config, environment: invocation.environment, operatorItems)
        entries += sweep.items
        if entries.isEmpty && !sweep.skipped.isEmpty { return sweep.finish(foundAnything: false) }
        if invocation.arguments.has("--json") {
            Console.out(JSONValue.array(entries.map(\.json)).encoded)
        } else if entries.isEmpty && sweep.code == ExitCode.ok {
            Console.error("intercom: no \(noun): add a [panel NAME] or [operator NAME] section and run 'intercom login'")
        } else {
            let recorded = entries.contains { $0.recorded != nil }
            Console.out(TextTable.render([["ID", "NAME", "WHERE"] + (recorded ? ["RECORDED"] : [])]
                                         + entries.map { [$0.id, $0.name, $0.whereText] + (recorded ? [$0.recorded ?? ""] : []) }))
        }
        return sweep.finish(foundAnything: true)
    }
}
