// FFmpeg for IntercomVideo, plus what Swift cannot import from it: function-like macros (AVERROR,
// FFERRTAG) and the string helper built on a compound literal.
// libavcodec, libswscale and libavutil are linked (liblinphone's mediastreamer maps them in every
// phone process anyway); libavformat, with its network and container dependencies (srt, ssh,
// zmq, bluray, openmpt…), is loaded with dlopen when a stream or clip is first opened, through
// the table below. Each field takes its type from the real declaration (`__typeof__`), so the
// compiler checks every signature against avformat.h.
#ifndef INTERCOM_CFFMPEG_SHIM_H
#define INTERCOM_CFFMPEG_SHIM_H

#include <errno.h>
#include <intercom_dynamic_load.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/dict.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>

static inline int intercom_averror(int posix_errno) { return AVERROR(posix_errno); }
static inline int intercom_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int intercom_averror_eof(void) { return AVERROR_EOF; }
static inline int intercom_averror_exit(void) { return AVERROR_EXIT; }
static inline int intercom_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int intercom_averror_http_unauthorized(void) { return AVERROR_HTTP_UNAUTHORIZED; }
static inline int intercom_averror_http_forbidden(void) { return AVERROR_HTTP_FORBIDDEN; }
static inline int intercom_averror_http_not_found(void) { return AVERROR_HTTP_NOT_FOUND; }
static inline int intercom_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int intercom_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int64_t intercom_av_nopts_value(void) { return AV_NOPTS_VALUE; }

/// The soname loaded: the headers' major version (Debian's libavformat59 for 59).
static inline const char *_Nonnull intercom_avformat_soname(void) {
    return "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR);
}

/// The functions the table holds: each (field, function) pair, named once for the struct and the loader.
#define INTERCOM_AVFORMAT_FUNCTIONS(X) \
    X(avformat_network_init, avformat_network_init) \
    X(avformat_alloc_context, avformat_alloc_context) \
    X(avformat_open_input, avformat_open_input) \
    X(avformat_find_stream_info, avformat_find_stream_info) \
    X(avformat_close_input, avformat_close_input) \
    X(avformat_free_context, avformat_free_context) \
    X(avformat_alloc_output_context2, avformat_alloc_output_context2) \
    X(avformat_new_stream, avformat_new_stream) \
    X(avformat_write_header, avformat_write_header) \
    X(av_find_best_stream, av_find_best_stream) \
    X(av_read_frame, av_read_frame) \
    X(av_interleaved_write_frame, av_interleaved_write_frame) \
    X(av_write_trailer, av_write_trailer) \
    X(avio_open, avio_open) \
    X(avio_closep, avio_closep)

INTERCOM_DECLARE_TABLE(intercom_avformat, INTERCOM_AVFORMAT_FUNCTIONS, intercom_avformat_open)

#endif
