#include "intercom_curl_table.h"

INTERCOM_DEFINE_LOADER(intercom_curl_open, intercom_curl, INTERCOM_CURL_FUNCTIONS)
