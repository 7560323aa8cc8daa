// libcurl's declarations for IntercomHTTP, and the table its functions are reached through: the
// library is loaded with dlopen when the process makes its first HTTP client (a panel, an operator,
// the TLS probe), so the light binary's `log`, `ctl` and attached screen never map libcurl and its
// ~30 dependencies. Each field takes its type from the real declaration (`__typeof__`), so the
// compiler checks every signature against curl.h.
#ifndef INTERCOM_CCURL_TABLE_H
#define INTERCOM_CCURL_TABLE_H
#include <stddef.h>
#include <curl/curl.h>

/// The soname loaded: Debian's libcurl4 (OpenSSL), the library the headers (libcurl4-openssl-dev) are for.
#define INTERCOM_CURL_SONAME "libcurl.so.4"

struct intercom_curl {
    __typeof__(curl_global_init) *_Nonnull global_init;
    __typeof__(curl_easy_init) *_Nonnull easy_init;
    __typeof__(curl_easy_cleanup) *_Nonnull easy_cleanup;
    __typeof__(curl_easy_perform) *_Nonnull easy_perform;
    __typeof__(curl_easy_strerror) *_Nonnull easy_strerror;
    /// Variadic: called from C only (CCurlShim's typed wrappers).
    __typeof__(curl_easy_setopt) *_Nonnull easy_setopt;
    /// Variadic: called from C only (CCurlShim's typed wrappers).
    __typeof__(curl_easy_getinfo) *_Nonnull easy_getinfo;
    __typeof__(curl_slist_append) *_Nonnull slist_append;
    __typeof__(curl_slist_free_all) *_Nonnull slist_free_all;
    __typeof__(curl_multi_init) *_Nonnull multi_init;
    __typeof__(curl_multi_cleanup) *_Nonnull multi_cleanup;
    /// Variadic: called from C only (CCurlShim's typed wrappers).
    __typeof__(curl_multi_setopt) *_Nonnull multi_setopt;
    __typeof__(curl_multi_add_handle) *_Nonnull multi_add_handle;
    __typeof__(curl_multi_remove_handle) *_Nonnull multi_remove_handle;
    __typeof__(curl_multi_perform) *_Nonnull multi_perform;
    __typeof__(curl_multi_poll) *_Nonnull multi_poll;
    __typeof__(curl_multi_wakeup) *_Nonnull multi_wakeup;
    __typeof__(curl_multi_info_read) *_Nonnull multi_info_read;
    __typeof__(curl_multi_strerror) *_Nonnull multi_strerror;
};

/// Loads `soname` and fills `*table` (uninitialised memory is fine): 0 on success; otherwise -1,
/// `*table` untouched and dlopen's or dlsym's reason in `error`. The handle is never closed: the
/// functions stay valid for the life of the process. curl_global_init is the caller's, once.
int intercom_curl_open(const char *_Nonnull soname, struct intercom_curl *_Nonnull table,
                       char *_Nonnull error, size_t error_size);

#endif
