#include "intercom_curl_shim.h"

CURLcode intercom_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode intercom_curl_setopt_ulong(CURL *handle, CURLoption option, unsigned long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode intercom_curl_setopt_ptr(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode intercom_curl_setopt_str(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode intercom_curl_setopt_func(CURL *handle, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode intercom_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode intercom_curl_getinfo_str(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLMcode intercom_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

CURLcode intercom_curl_getinfo_ptr(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

int intercom_curl_msg_done(const CURLMsg *message, CURL **easy, CURLcode *result) {
    if (message == NULL || message->msg != CURLMSG_DONE) return 0;
    *easy = message->easy_handle;
    *result = message->data.result;
    return 1;
}
