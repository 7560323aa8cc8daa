#include "intercom_turbojpeg_table.h"
#include <intercom_dynamic_load.h>

int intercom_turbojpeg_open(const char *soname, struct intercom_turbojpeg *table, char *error, size_t error_size) {
    void *library = intercom_dynamic_open(soname, error, error_size);
    if (library == NULL) {
        return -1;
    }
    struct intercom_turbojpeg loaded;
    INTERCOM_SYMBOL(init_compress, tjInitCompress)
    INTERCOM_SYMBOL(init_decompress, tjInitDecompress)
    INTERCOM_SYMBOL(destroy, tjDestroy)
    INTERCOM_SYMBOL(get_error_str2, tjGetErrorStr2)
    INTERCOM_SYMBOL(decompress_header3, tjDecompressHeader3)
    INTERCOM_SYMBOL(decompress2, tjDecompress2)
    INTERCOM_SYMBOL(compress2, tjCompress2)
    INTERCOM_SYMBOL(free, tjFree)
    INTERCOM_SYMBOL(get_scaling_factors, tjGetScalingFactors)
    *table = loaded;
    return 0;
}
