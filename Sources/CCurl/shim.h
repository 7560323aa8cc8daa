#ifndef INTERCOM_CCURL_SHIM_H
#define INTERCOM_CCURL_SHIM_H
#include <curl/curl.h>
#endif
