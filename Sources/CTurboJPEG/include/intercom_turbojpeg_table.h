// libturbojpeg's declarations for pictures, and the table its functions are reached through: the
// library is loaded with dlopen when the first JPEG is read or written, so commands that handle none
// (export, open, log) never map it. Each field takes its type from the real declaration
// (`__typeof__`), so the compiler checks every signature against turbojpeg.h.
#ifndef INTERCOM_CTURBOJPEG_TABLE_H
#define INTERCOM_CTURBOJPEG_TABLE_H
#include <stddef.h>
#include <intercom_dynamic_load.h>
#include <turbojpeg.h>

/// The soname loaded: Debian's libturbojpeg0, the library the headers (libturbojpeg0-dev) are for.
#define INTERCOM_TURBOJPEG_SONAME "libturbojpeg.so.0"

/// The functions the table holds: each (field, function) pair, named once for the struct and the loader.
#define INTERCOM_TURBOJPEG_FUNCTIONS(X) \
    X(init_compress, tjInitCompress) \
    X(init_decompress, tjInitDecompress) \
    X(destroy, tjDestroy) \
    X(get_error_str2, tjGetErrorStr2) \
    X(decompress_header3, tjDecompressHeader3) \
    X(decompress2, tjDecompress2) \
    X(compress2, tjCompress2) \
    X(free, tjFree) \
    X(get_scaling_factors, tjGetScalingFactors)

INTERCOM_DECLARE_TABLE(intercom_turbojpeg, INTERCOM_TURBOJPEG_FUNCTIONS, intercom_turbojpeg_open)

#endif
