#include "shim.h"
#include <intercom_dynamic_load.h>

int intercom_avformat_open(const char *soname, struct intercom_avformat *table, char *error, size_t error_size) {
    void *library = intercom_dynamic_open(soname, error, error_size);
    if (library == NULL) {
        return -1;
    }
    struct intercom_avformat loaded;
    // INTERCOM_SYMBOL (CDynamicLoad's) casts each symbol to the field's own type, which __typeof__
    // took from avformat.h.
    INTERCOM_SYMBOL(avformat_network_init, avformat_network_init)
    INTERCOM_SYMBOL(avformat_alloc_context, avformat_alloc_context)
    INTERCOM_SYMBOL(avformat_open_input, avformat_open_input)
    INTERCOM_SYMBOL(avformat_find_stream_info, avformat_find_stream_info)
    INTERCOM_SYMBOL(avformat_close_input, avformat_close_input)
    INTERCOM_SYMBOL(avformat_free_context, avformat_free_context)
    INTERCOM_SYMBOL(avformat_alloc_output_context2, avformat_alloc_output_context2)
    INTERCOM_SYMBOL(avformat_new_stream, avformat_new_stream)
    INTERCOM_SYMBOL(avformat_write_header, avformat_write_header)
    INTERCOM_SYMBOL(av_find_best_stream, av_find_best_stream)
    INTERCOM_SYMBOL(av_read_frame, av_read_frame)
    INTERCOM_SYMBOL(av_interleaved_write_frame, av_interleaved_write_frame)
    INTERCOM_SYMBOL(av_write_trailer, av_write_trailer)
    INTERCOM_SYMBOL(avio_open, avio_open)
    INTERCOM_SYMBOL(avio_closep, avio_closep)
    *table = loaded;
    return 0;
}
