import IntercomBase
import IntercomCLI
import IntercomPostgres

/// `intercom site init`: creates the site's tables in the database `[site] url` names, or brings
/// them to this program's version, in one transaction, and says the version. The daemon does the
/// same at start; this is for the operator setting a site up (docs/SITE.md) before any desk runs.
enum SiteCommand {
    static let spec = CommandSpec(
        name: "site", maxPositionals: 1,
        details: "init: create or upgrade the site's schema in the PostgreSQL database [site] url names (the role needs "
            + "CREATE on it), in one transaction; a schema newer than this intercom knows is refused. Exit 65 for a config "
            + "or schema problem, 69 when the database cannot be reached.",
        actions: [CommandAction("init")],
        run: run)

    @Sendable static func run(_ invocation: Invocation) async -> Int32 {
        guard invocation.arguments.positionals == ["init"] else {
            return Console.fail(UsageError(message: "say what to do: site init", command: "site").description, code: ExitCode.usage)
        }
        let config: IntercomConfig
        do {
            config = try invocation.loadConfig()
        } catch {
            return Console.fail(error.description, code: error.exitCode)
        }
        guard let site = config.site else {
            return Console.fail("\(config.path ?? "the config") has no [site] section: add one with "
                + "'url = postgresql://intercom@DB-HOST/intercom' (docs/SITE.md)", code: ExitCode.dataError)
        }
        let connection: PostgresConnection
        do {
            connection = PostgresConnection(target: try PostgresTarget(settings: site))
        } catch {
            return Console.fail(error.message, code: ExitCode.dataError)
        }
        do {
            let outcome = try await SiteSchema.product.migrate(connection)
            await connection.close()
            let what = outcome.from == outcome.to ? "already current"
                : outcome.from == 0 ? "created" : "upgraded from version \(outcome.from)"
            Console.out("site ok: schema version \(outcome.to) (\(what)) at \(site.url)")
            return ExitCode.ok
        } catch {
            await connection.close()
            let code = switch error.kind {
            case .connect, .lost: ExitCode.unavailable
            case .settings, .schema: ExitCode.dataError
            case .statement: ExitCode.failure
            }
            return Console.fail("site init: \(error.message)", code: code)
        }
    }
}
