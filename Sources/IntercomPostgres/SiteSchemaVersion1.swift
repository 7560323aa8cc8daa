/// Version 1: every table the site's store uses. Times are `timestamptz`; a journal entry's body is
/// JSON as the desk that wrote it made it (the journal's fields change more often than the schema).
enum SiteSchemaVersion1 {
    static let migration = SiteSchema.Migration(version: 1, statements: [
        // Each desk's presence: one row per desk, overwritten. Online is decided by the reader (its session's lock, its last seen).
        """
        CREATE TABLE site_desks (
            name text PRIMARY KEY,
            on_duty boolean NOT NULL,
            operator text,
            current_call text,
            last_seen timestamptz NOT NULL)
        """,
        // Every switch change is kept (who switched what when); the latest per panel and kind holds.
        """
        CREATE TABLE site_switches (
            id bigserial PRIMARY KEY,
            panel text NOT NULL,
            kind text NOT NULL,
            value text NOT NULL,
            desk text NOT NULL,
            operator text,
            at timestamptz NOT NULL)
        """,
        "CREATE INDEX site_switches_latest ON site_switches (lower(panel), kind, at DESC, id DESC)",
        // One row per forked call, keyed by the SIP Call-ID every desk saw; the first desk to claim it holds it.
        """
        CREATE TABLE site_calls (
            call_id text PRIMARY KEY,
            panel text,
            caller text,
            started_at timestamptz NOT NULL,
            claim_kind text,
            claim_desk text,
            claim_operator text,
            claim_target text,
            claim_at timestamptz)
        """,
        // Where the call rang, and how it ended at each desk.
        """
        CREATE TABLE site_call_desks (
            call_id text NOT NULL REFERENCES site_calls (call_id) ON DELETE CASCADE,
            desk text NOT NULL,
            rang_at timestamptz NOT NULL,
            ended_at timestamptz,
            end_reason text,
            PRIMARY KEY (call_id, desk))
        """,
        "CREATE INDEX site_call_desks_active ON site_call_desks (call_id) WHERE ended_at IS NULL",
        // The shared journal: the desk makes each entry's id, so a resend after an outage is no duplicate.
        // `body` is the entry's JSON as `intercom log --json` prints it; the columns are what is filtered on.
        """
        CREATE TABLE site_journal (
            id uuid PRIMARY KEY,
            seq bigserial UNIQUE,
            desk text NOT NULL,
            operator text,
            at timestamptz NOT NULL,
            kind text NOT NULL,
            panel text,
            missed boolean NOT NULL,
            call_id text,
            rang_at jsonb NOT NULL DEFAULT '[]',
            claim_kind text,
            claim_desk text,
            claim_operator text,
            claim_target text,
            claim_at timestamptz,
            body jsonb NOT NULL,
            handled_by text,
            handled_at timestamptz)
        """,
        "CREATE INDEX site_journal_missed ON site_journal (at) WHERE missed AND handled_at IS NULL",
        "CREATE INDEX site_journal_at ON site_journal (at DESC)",
        "CREATE INDEX site_journal_desk_at ON site_journal (desk, at DESC)",
    ])
}
