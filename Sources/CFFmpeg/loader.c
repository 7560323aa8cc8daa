#include "shim.h"
#include <dlfcn.h>
#include <stdio.h>

int intercom_avformat_open(const char *soname, struct intercom_avformat *table, char *error, size_t error_size) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(error, error_size, "%s", dlerror());
        return -1;
    }
    struct intercom_avformat loaded;
    // Each symbol is cast to the field's own type, which __typeof__ took from avformat.h.
#define INTERCOM_SYMBOL(name)                                                    \
    loaded.name = (__typeof__(loaded.name))dlsym(library, #name);                \
    if (loaded.name == NULL) {                                                   \
        snprintf(error, error_size, "%s has no %s", soname, #name);              \
        dlclose(library);                                                        \
        return -1;                                                               \
    }
    INTERCOM_SYMBOL(avformat_network_init)
    INTERCOM_SYMBOL(avformat_alloc_context)
    INTERCOM_SYMBOL(avformat_open_input)
    INTERCOM_SYMBOL(avformat_find_stream_info)
    INTERCOM_SYMBOL(avformat_close_input)
    INTERCOM_SYMBOL(avformat_free_context)
    INTERCOM_SYMBOL(avformat_alloc_output_context2)
    INTERCOM_SYMBOL(avformat_new_stream)
    INTERCOM_SYMBOL(avformat_write_header)
    INTERCOM_SYMBOL(av_find_best_stream)
    INTERCOM_SYMBOL(av_read_frame)
    INTERCOM_SYMBOL(av_interleaved_write_frame)
    INTERCOM_SYMBOL(av_write_trailer)
    INTERCOM_SYMBOL(avio_open)
    INTERCOM_SYMBOL(avio_closep)
#undef INTERCOM_SYMBOL
    *table = loaded;
    return 0;
}
