#ifndef INTERCOM_CSYSTEMD_SHIM_H
#define INTERCOM_CSYSTEMD_SHIM_H
#include <systemd/sd-daemon.h>
#include <systemd/sd-bus.h>
#endif
