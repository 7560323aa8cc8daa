#include "intercom_sqlite_table.h"
#include <intercom_dynamic_load.h>

int intercom_sqlite_open(const char *soname, struct intercom_sqlite *table, char *error, size_t error_size) {
    void *library = intercom_dynamic_open(soname, error, error_size);
    if (library == NULL) {
        return -1;
    }
    struct intercom_sqlite loaded;
    INTERCOM_SYMBOL(open_v2, sqlite3_open_v2)
    INTERCOM_SYMBOL(close, sqlite3_close)
    INTERCOM_SYMBOL(errmsg, sqlite3_errmsg)
    INTERCOM_SYMBOL(busy_timeout, sqlite3_busy_timeout)
    INTERCOM_SYMBOL(prepare_v2, sqlite3_prepare_v2)
    INTERCOM_SYMBOL(finalize, sqlite3_finalize)
    INTERCOM_SYMBOL(bind_null, sqlite3_bind_null)
    INTERCOM_SYMBOL(bind_int64, sqlite3_bind_int64)
    INTERCOM_SYMBOL(bind_double, sqlite3_bind_double)
    INTERCOM_SYMBOL(bind_text, sqlite3_bind_text)
    INTERCOM_SYMBOL(step, sqlite3_step)
    INTERCOM_SYMBOL(column_count, sqlite3_column_count)
    INTERCOM_SYMBOL(column_type, sqlite3_column_type)
    INTERCOM_SYMBOL(column_int64, sqlite3_column_int64)
    INTERCOM_SYMBOL(column_double, sqlite3_column_double)
    INTERCOM_SYMBOL(column_text, sqlite3_column_text)
    INTERCOM_SYMBOL(last_insert_rowid, sqlite3_last_insert_rowid)
    *table = loaded;
    return 0;
}
