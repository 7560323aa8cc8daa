#include "intercom_turbojpeg_table.h"

INTERCOM_DEFINE_LOADER(intercom_turbojpeg_open, intercom_turbojpeg, INTERCOM_TURBOJPEG_FUNCTIONS)
