// libcurl's declarations for IntercomHTTP, and the table its functions are reached through: the
// library is loaded with dlopen when the process makes its first HTTP client (a panel, an operator,
// the TLS probe), so the light binary's `log`, `ctl` and attached screen never map libcurl and its
// ~30 dependencies. Each field takes its type from the real declaration (`__typeof__`), so the
// compiler checks every signature against curl.h.
#ifndef INTERCOM_CCURL_TABLE_H
#define INTERCOM_CCURL_TABLE_H
#include <stddef.h>
#include <intercom_dynamic_load.h>
#include <curl/curl.h>

/// The soname loaded: Debian's libcurl4 (OpenSSL), the library the headers (libcurl4-openssl-dev) are for.
#define INTERCOM_CURL_SONAME "libcurl.so.4"

/// The functions the table holds: each (field, function) pair, named once for the struct and the loader.
#define INTERCOM_CURL_FUNCTIONS(X) \
    X(global_init, curl_global_init) \
    X(easy_init, curl_easy_init) \
    X(easy_cleanup, curl_easy_cleanup) \
    X(easy_perform, curl_easy_perform) \
    X(easy_strerror, curl_easy_strerror) \
    X(easy_setopt, curl_easy_setopt) /* variadic: called from C only (CCurlShim's typed wrappers) */ \
    X(easy_getinfo, curl_easy_getinfo) /* variadic, likewise */ \
    X(slist_append, curl_slist_append) \
    X(slist_free_all, curl_slist_free_all) \
    X(multi_init, curl_multi_init) \
    X(multi_cleanup, curl_multi_cleanup) \
    X(multi_setopt, curl_multi_setopt) /* variadic, likewise */ \
    X(multi_add_handle, curl_multi_add_handle) \
    X(multi_remove_handle, curl_multi_remove_handle) \
    X(multi_perform, curl_multi_perform) \
    X(multi_poll, curl_multi_poll) \
    X(multi_wakeup, curl_multi_wakeup) \
    X(multi_info_read, curl_multi_info_read) \
    X(multi_strerror, curl_multi_strerror)

INTERCOM_DECLARE_TABLE(intercom_curl, INTERCOM_CURL_FUNCTIONS, intercom_curl_open)

#endif
