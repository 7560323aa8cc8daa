#ifndef INTERCOM_CURL_SHIM_H
#define INTERCOM_CURL_SHIM_H
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call;
// these wrappers fix the argument type per option kind so Swift sees a typed API. They call
// through the table CCurl's loader filled (`curl`), never libcurl's symbols, so nothing here
// makes the binary link libcurl.
#include "intercom_curl_table.h"

// CURLAUTH_* are cast-expression macros that Swift does not import.
static const unsigned long INTERCOM_CURLAUTH_BASIC = CURLAUTH_BASIC;
static const unsigned long INTERCOM_CURLAUTH_DIGEST = CURLAUTH_DIGEST;

CURLcode intercom_curl_setopt_long(const struct intercom_curl *curl, CURL *handle, CURLoption option, long value);
CURLcode intercom_curl_setopt_ulong(const struct intercom_curl *curl, CURL *handle, CURLoption option, unsigned long value);
CURLcode intercom_curl_setopt_ptr(const struct intercom_curl *curl, CURL *handle, CURLoption option, void *value);
CURLcode intercom_curl_setopt_str(const struct intercom_curl *curl, CURL *handle, CURLoption option, const char *value);
/// For CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION (same signature).
CURLcode intercom_curl_setopt_func(const struct intercom_curl *curl, CURL *handle, CURLoption option, curl_write_callback value);

CURLcode intercom_curl_getinfo_long(const struct intercom_curl *curl, CURL *handle, CURLINFO info, long *value);
/// The string stays owned by the handle; copy it before the next transfer.
CURLcode intercom_curl_getinfo_str(const struct intercom_curl *curl, CURL *handle, CURLINFO info, const char **value);

/// curl_multi_setopt is variadic too; the loop only sets long options (CURLMOPT_MAXCONNECTS).
CURLMcode intercom_curl_multi_setopt_long(const struct intercom_curl *curl, CURLM *multi, CURLMoption option, long value);
/// CURLINFO_PRIVATE hands back the pointer stored with CURLOPT_PRIVATE.
CURLcode intercom_curl_getinfo_ptr(const struct intercom_curl *curl, CURL *handle, CURLINFO info, void **value);
/// The fields of a CURLMsg, whose result sits in an anonymous union: 1 and the easy handle and its
/// result for a finished transfer (CURLMSG_DONE), 0 for any other message.
int intercom_curl_msg_done(const CURLMsg *message, CURL **easy, CURLcode *result);

#endif
