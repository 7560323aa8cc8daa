// SQLite's declarations for the journal, and the table its functions are reached through: the
// library is loaded with dlopen when the process first opens the journal, so commands that never
// read it (export, open, an attached screen) never map it. Each field takes its type from the real
// declaration (`__typeof__`), so the compiler checks every signature against sqlite3.h.
#ifndef INTERCOM_CSQLITE_TABLE_H
#define INTERCOM_CSQLITE_TABLE_H
#include <stddef.h>
#include <intercom_dynamic_load.h>
#include <sqlite3.h>

/// The soname loaded: Debian's libsqlite3-0, the library the headers (libsqlite3-dev) are for.
#define INTERCOM_SQLITE_SONAME "libsqlite3.so.0"

/// The functions the table holds: each (field, function) pair, named once for the struct and the loader.
#define INTERCOM_SQLITE_FUNCTIONS(X) \
    X(open_v2, sqlite3_open_v2) \
    X(close, sqlite3_close) \
    X(errmsg, sqlite3_errmsg) \
    X(busy_timeout, sqlite3_busy_timeout) \
    X(prepare_v2, sqlite3_prepare_v2) \
    X(finalize, sqlite3_finalize) \
    X(bind_null, sqlite3_bind_null) \
    X(bind_int64, sqlite3_bind_int64) \
    X(bind_double, sqlite3_bind_double) \
    X(bind_text, sqlite3_bind_text) \
    X(step, sqlite3_step) \
    X(column_count, sqlite3_column_count) \
    X(column_type, sqlite3_column_type) \
    X(column_int64, sqlite3_column_int64) \
    X(column_double, sqlite3_column_double) \
    X(column_text, sqlite3_column_text) \
    X(last_insert_rowid, sqlite3_last_insert_rowid)

INTERCOM_DECLARE_TABLE(intercom_sqlite, INTERCOM_SQLITE_FUNCTIONS, intercom_sqlite_open)

#endif
