#include "shim.h"

INTERCOM_DEFINE_LOADER(intercom_mosquitto_open, intercom_mosquitto, INTERCOM_MOSQUITTO_FUNCTIONS)
