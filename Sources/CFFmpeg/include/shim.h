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

struct intercom_avformat {
    __typeof__(avformat_network_init) *_Nonnull avformat_network_init;
    __typeof__(avformat_alloc_context) *_Nonnull avformat_alloc_context;
    __typeof__(avformat_open_input) *_Nonnull avformat_open_input;
    __typeof__(avformat_find_stream_info) *_Nonnull avformat_find_stream_info;
    __typeof__(avformat_close_input) *_Nonnull avformat_close_input;
    __typeof__(avformat_free_context) *_Nonnull avformat_free_context;
    __typeof__(avformat_alloc_output_context2) *_Nonnull avformat_alloc_output_context2;
    __typeof__(avformat_new_stream) *_Nonnull avformat_new_stream;
    __typeof__(avformat_write_header) *_Nonnull avformat_write_header;
    __typeof__(av_find_best_stream) *_Nonnull av_find_best_stream;
    __typeof__(av_read_frame) *_Nonnull av_read_frame;
    __typeof__(av_interleaved_write_frame) *_Nonnull av_interleaved_write_frame;
    __typeof__(av_write_trailer) *_Nonnull av_write_trailer;
    __typeof__(avio_open) *_Nonnull avio_open;
    __typeof__(avio_closep) *_Nonnull avio_closep;
};

/// Loads `soname` and fills `*table` (uninitialised memory is fine): 0 on success; otherwise -1,
/// `*table` untouched and dlopen's or dlsym's reason in `error`. The handle is never closed: the
/// functions stay valid for the life of the process.
int intercom_avformat_open(const char *_Nonnull soname, struct intercom_avformat *_Nonnull table,
                           char *_Nonnull error, size_t error_size);

#endif
