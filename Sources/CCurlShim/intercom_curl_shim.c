#include "intercom_curl_shim.h"

CURLcode intercom_curl_setopt_long(const struct intercom_curl *curl, CURL *handle, CURLoption option, long value) {
    return curl->easy_setopt(handle, option, value);
}

CURLcode intercom_curl_setopt_ulong(const struct intercom_curl *curl, CURL *handle, CURLoption option, unsigned long value) {
    return curl->easy_setopt(handle, option, value);
}

CURLcode intercom_curl_setopt_ptr(const struct intercom_curl *curl, CURL *handle, CURLoption option, void *value) {
    return curl->easy_setopt(handle, option, value);
}

CURLcode intercom_curl_setopt_str(const struct intercom_curl *curl, CURL *handle, CURLoption option, const char *value) {
    return curl->easy_setopt(handle, option, value);
}

CURLcode intercom_curl_setopt_func(const struct intercom_curl *curl, CURL *handle, CURLoption option, curl_write_callback value) {
    return curl->easy_setopt(handle, option, value);
}

CURLcode intercom_curl_getinfo_long(const struct intercom_curl *curl, CURL *handle, CURLINFO info, long *value) {
    return curl->easy_getinfo(handle, info, value);
}

CURLcode intercom_curl_getinfo_str(const struct intercom_curl *curl, CURL *handle, CURLINFO info, const char **value) {
    return curl->easy_getinfo(handle, info, value);
}

CURLMcode intercom_curl_multi_setopt_long(const struct intercom_curl *curl, CURLM *multi, CURLMoption option, long value) {
    return curl->multi_setopt(multi, option, value);
}

CURLcode intercom_curl_getinfo_ptr(const struct intercom_curl *curl, CURL *handle, CURLINFO info, void **value) {
    return curl->easy_getinfo(handle, info, value);
}

int intercom_curl_msg_done(const CURLMsg *message, CURL **easy, CURLcode *result) {
    if (message == NULL || message->msg != CURLMSG_DONE) return 0;
    *easy = message->easy_handle;
    *result = message->data.result;
    return 1;
}
