#include "intercom_sqlite_table.h"

INTERCOM_DEFINE_LOADER(intercom_sqlite_open, intercom_sqlite, INTERCOM_SQLITE_FUNCTIONS)
