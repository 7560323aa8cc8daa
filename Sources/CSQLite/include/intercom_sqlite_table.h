// SQLite's declarations for the journal, and the table its functions are reached through: the
// library is loaded with dlopen when the process first opens the journal, so commands that never
// read it (export, open, an attached screen) never map it. Each field takes its type from the real
// declaration (`__typeof__`), so the compiler checks every signature against sqlite3.h.
#ifndef INTERCOM_CSQLITE_TABLE_H
#define INTERCOM_CSQLITE_TABLE_H
#include <stddef.h>
#include <sqlite3.h>

/// The soname loaded: Debian's libsqlite3-0, the library the headers (libsqlite3-dev) are for.
#define INTERCOM_SQLITE_SONAME "libsqlite3.so.0"

struct intercom_sqlite {
    __typeof__(sqlite3_open_v2) *_Nonnull open_v2;
    __typeof__(sqlite3_close) *_Nonnull close;
    __typeof__(sqlite3_errmsg) *_Nonnull errmsg;
    __typeof__(sqlite3_busy_timeout) *_Nonnull busy_timeout;
    __typeof__(sqlite3_prepare_v2) *_Nonnull prepare_v2;
    __typeof__(sqlite3_finalize) *_Nonnull finalize;
    __typeof__(sqlite3_bind_null) *_Nonnull bind_null;
    __typeof__(sqlite3_bind_int64) *_Nonnull bind_int64;
    __typeof__(sqlite3_bind_double) *_Nonnull bind_double;
    __typeof__(sqlite3_bind_text) *_Nonnull bind_text;
    __typeof__(sqlite3_step) *_Nonnull step;
    __typeof__(sqlite3_column_count) *_Nonnull column_count;
    __typeof__(sqlite3_column_type) *_Nonnull column_type;
    __typeof__(sqlite3_column_int64) *_Nonnull column_int64;
    __typeof__(sqlite3_column_double) *_Nonnull column_double;
    __typeof__(sqlite3_column_text) *_Nonnull column_text;
    __typeof__(sqlite3_last_insert_rowid) *_Nonnull last_insert_rowid;
};

/// Loads `soname` and fills `*table` (uninitialised memory is fine): 0 on success; otherwise -1,
/// `*table` untouched and dlopen's or dlsym's reason in `error`. The handle is never closed.
int intercom_sqlite_open(const char *_Nonnull soname, struct intercom_sqlite *_Nonnull table,
                         char *_Nonnull error, size_t error_size);

#endif
