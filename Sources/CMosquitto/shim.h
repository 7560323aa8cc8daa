#ifndef INTERCOM_CMOSQUITTO_SHIM_H
#define INTERCOM_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#endif
