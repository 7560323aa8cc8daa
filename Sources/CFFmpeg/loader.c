#include "shim.h"

INTERCOM_DEFINE_LOADER(intercom_avformat_open, intercom_avformat, INTERCOM_AVFORMAT_FUNCTIONS)
