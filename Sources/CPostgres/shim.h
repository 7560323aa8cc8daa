// libpq, PostgreSQL's client library (Debian: libpq-dev; libpq5 at run time). IntercomSite alone imports it.
#include <libpq-fe.h>
