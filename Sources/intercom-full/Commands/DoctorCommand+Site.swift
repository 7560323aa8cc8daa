import IntercomBase
import IntercomCLI
import IntercomPostgres

/// `[site]`: the site's store answers with a schema this desk can use (issue 40). One line: the
/// store and its schema, or why not and what to do. Read only: doctor never creates or upgrades it.
extension DoctorCommand {
    static func siteFinding(_ site: SiteConfig) async -> Finding {
        let connection: PostgresConnection
        do {
            connection = PostgresConnection(target: try PostgresTarget(settings: site))
        } catch {
            return Finding(ok: false, text: "[site]: \(error.message)", code: ExitCode.dataError)
        }
        let desk = "desk \(site.deskName)"
        do {
            let version = try await SiteSchema.product.check(connection)
            await connection.close()
            guard version > 0 else {
                return Finding(ok: false, text: "store \(site.url) answers but has no site schema yet; run 'intercom site init' (\(desk))",
                               code: ExitCode.dataError)
            }
            return Finding(ok: true, text: "store \(site.url) reachable, schema version \(version) (\(desk))")
        } catch {
            await connection.close()
            return switch error.kind {
            case .schema, .settings: Finding(ok: false, text: "store \(site.url): \(error.message)", code: ExitCode.dataError)
            default: Finding(ok: false, text: "store \(site.url) unreachable: \(error.message); check [site] url and that PostgreSQL runs "
                                 + "(the desk goes on alone meanwhile)", code: ExitCode.unavailable)
            }
        }
    }
}
