#include "intercom_chafa_table.h"

INTERCOM_DEFINE_LOADER(intercom_chafa_open, intercom_chafa, INTERCOM_CHAFA_FUNCTIONS)
