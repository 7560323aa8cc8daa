#ifndef INTERCOM_CZLIB_SHIM_H
#define INTERCOM_CZLIB_SHIM_H
#include <zlib.h>
#endif
