#ifndef INTERCOM_CTURBOJPEG_SHIM_H
#define INTERCOM_CTURBOJPEG_SHIM_H
#include <turbojpeg.h>
#endif
