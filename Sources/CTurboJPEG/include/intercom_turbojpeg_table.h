// libturbojpeg's declarations for pictures, and the table its functions are reached through: the
// library is loaded with dlopen when the first JPEG is read or written, so commands that handle none
// (export, open, log) never map it. Each field takes its type from the real declaration
// (`__typeof__`), so the compiler checks every signature against turbojpeg.h.
#ifndef INTERCOM_CTURBOJPEG_TABLE_H
#define INTERCOM_CTURBOJPEG_TABLE_H
#include <stddef.h>
#include <turbojpeg.h>

/// The soname loaded: Debian's libturbojpeg0, the library the headers (libturbojpeg0-dev) are for.
#define INTERCOM_TURBOJPEG_SONAME "libturbojpeg.so.0"

struct intercom_turbojpeg {
    __typeof__(tjInitCompress) *_Nonnull init_compress;
    __typeof__(tjInitDecompress) *_Nonnull init_decompress;
    __typeof__(tjDestroy) *_Nonnull destroy;
    __typeof__(tjGetErrorStr2) *_Nonnull get_error_str2;
    __typeof__(tjDecompressHeader3) *_Nonnull decompress_header3;
    __typeof__(tjDecompress2) *_Nonnull decompress2;
    __typeof__(tjCompress2) *_Nonnull compress2;
    __typeof__(tjFree) *_Nonnull free;
    __typeof__(tjGetScalingFactors) *_Nonnull get_scaling_factors;
};

/// Loads `soname` and fills `*table` (uninitialised memory is fine): 0 on success; otherwise -1,
/// `*table` untouched and dlopen's or dlsym's reason in `error`. The handle is never closed.
int intercom_turbojpeg_open(const char *_Nonnull soname, struct intercom_turbojpeg *_Nonnull table,
                            char *_Nonnull error, size_t error_size);

#endif
