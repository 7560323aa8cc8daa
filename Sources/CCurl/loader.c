#include "intercom_curl_table.h"
#include <intercom_dynamic_load.h>

int intercom_curl_open(const char *soname, struct intercom_curl *table, char *error, size_t error_size) {
    void *library = intercom_dynamic_open(soname, error, error_size);
    if (library == NULL) {
        return -1;
    }
    struct intercom_curl loaded;
    // INTERCOM_SYMBOL (CDynamicLoad's) casts each symbol to the field's own type, which __typeof__
    // took from curl.h.
    INTERCOM_SYMBOL(global_init, curl_global_init)
    INTERCOM_SYMBOL(easy_init, curl_easy_init)
    INTERCOM_SYMBOL(easy_cleanup, curl_easy_cleanup)
    INTERCOM_SYMBOL(easy_perform, curl_easy_perform)
    INTERCOM_SYMBOL(easy_strerror, curl_easy_strerror)
    INTERCOM_SYMBOL(easy_setopt, curl_easy_setopt)
    INTERCOM_SYMBOL(easy_getinfo, curl_easy_getinfo)
    INTERCOM_SYMBOL(slist_append, curl_slist_append)
    INTERCOM_SYMBOL(slist_free_all, curl_slist_free_all)
    INTERCOM_SYMBOL(multi_init, curl_multi_init)
    INTERCOM_SYMBOL(multi_cleanup, curl_multi_cleanup)
    INTERCOM_SYMBOL(multi_setopt, curl_multi_setopt)
    INTERCOM_SYMBOL(multi_add_handle, curl_multi_add_handle)
    INTERCOM_SYMBOL(multi_remove_handle, curl_multi_remove_handle)
    INTERCOM_SYMBOL(multi_perform, curl_multi_perform)
    INTERCOM_SYMBOL(multi_poll, curl_multi_poll)
    INTERCOM_SYMBOL(multi_wakeup, curl_multi_wakeup)
    INTERCOM_SYMBOL(multi_info_read, curl_multi_info_read)
    INTERCOM_SYMBOL(multi_strerror, curl_multi_strerror)
    *table = loaded;
    return 0;
}
