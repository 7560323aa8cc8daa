// FFmpeg's four libraries for IntercomVideo, plus what Swift cannot import from them:
// function-like macros (AVERROR, FFERRTAG) and the string helper built on a compound literal.
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

#endif
