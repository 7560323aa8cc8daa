#ifndef INTERCOM_CMICROHTTPD_SHIM_H
#define INTERCOM_CMICROHTTPD_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
#endif
