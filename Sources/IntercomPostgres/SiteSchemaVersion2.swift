/// Version 2: `intercom log --desk NAME` finds its entries by index. The journal is filtered on
/// `lower(desk)` (a desk's name matches in any case, as the local journal's `--desk` does), which
/// version 1's `(desk, at)` index cannot serve: each `--desk` read scanned the whole journal. The
/// index is on the folded name and ordered as the read is (newest first, `seq` breaking ties), so
/// the newest N of a desk are the index's first N; the old index, which no statement uses, goes.
/// Desk names stay stored as written: the journal and `ctl site` show them as the desk spells itself.
enum SiteSchemaVersion2 {
    static let migration = SiteSchema.Migration(version: 2, statements: [
        "CREATE INDEX site_journal_desk ON site_journal (lower(desk), at DESC, seq DESC)",
        "DROP INDEX site_journal_desk_at",
    ])
}
