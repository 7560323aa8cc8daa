// libpq's declarations for IntercomSite, and the table its functions are reached through: the
// library is loaded with dlopen when a desk first connects to its site's PostgreSQL, so a daemon
// without `[site]` never maps it (or its Kerberos, LDAP and SASL libraries). Each field takes its
// type from the real declaration (`__typeof__`), so the compiler checks every signature against
// libpq-fe.h (Debian's libpq-dev; libpq5 at run time).
#ifndef INTERCOM_CPOSTGRES_SHIM_H
#define INTERCOM_CPOSTGRES_SHIM_H
#include <stddef.h>
#include <intercom_dynamic_load.h>
#include <postgresql/libpq-fe.h>

/// The soname loaded, from Debian's libpq5.
#define INTERCOM_LIBPQ_SONAME "libpq.so.5"

/// The functions the table holds: each (field, function) pair, named once for the struct and the loader.
#define INTERCOM_LIBPQ_FUNCTIONS(X) \
    X(connect_start_params, PQconnectStartParams) \
    X(connect_poll, PQconnectPoll) \
    X(status, PQstatus) \
    X(error_message, PQerrorMessage) \
    X(finish, PQfinish) \
    X(socket, PQsocket) \
    X(set_notice_processor, PQsetNoticeProcessor) \
    X(send_query_params, PQsendQueryParams) \
    X(is_busy, PQisBusy) \
    X(set_nonblocking, PQsetnonblocking) \
    X(flush, PQflush) \
    X(get_result, PQgetResult) \
    X(result_status, PQresultStatus) \
    X(result_error_field, PQresultErrorField) \
    X(clear, PQclear) \
    X(nfields, PQnfields) \
    X(ntuples, PQntuples) \
    X(fname, PQfname) \
    X(getisnull, PQgetisnull) \
    X(getvalue, PQgetvalue) \
    X(cmd_tuples, PQcmdTuples) \
    X(consume_input, PQconsumeInput) \
    X(notifies, PQnotifies) \
    X(freemem, PQfreemem)

INTERCOM_DECLARE_TABLE(intercom_libpq, INTERCOM_LIBPQ_FUNCTIONS, intercom_libpq_open)

#endif
