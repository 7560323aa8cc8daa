#ifndef INTERCOM_CCHAFA_SHIM_H
#define INTERCOM_CCHAFA_SHIM_H
#include <chafa.h>
#endif
