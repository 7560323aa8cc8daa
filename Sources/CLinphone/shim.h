#ifndef INTERCOM_CLINPHONE_SHIM_H
#define INTERCOM_CLINPHONE_SHIM_H
#include <linphone/core.h>
#include <linphone/logging.h>
#include <linphone/lpconfig.h>
#include <mediastreamer2/msfactory.h>
#include <bctoolbox/list.h>
#endif
