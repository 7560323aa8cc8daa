#include "shim.h"

INTERCOM_DEFINE_LOADER(intercom_libpq_open, intercom_libpq, INTERCOM_LIBPQ_FUNCTIONS)
