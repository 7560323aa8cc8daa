#ifndef INTERCOM_CSQLITE_SHIM_H
#define INTERCOM_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
