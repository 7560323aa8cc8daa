#include "shim.h"
#include <intercom_dynamic_load.h>

int intercom_mosquitto_open(const char *soname, struct intercom_mosquitto *table, char *error, size_t error_size) {
    void *library = intercom_dynamic_open(soname, error, error_size);
    if (library == NULL) {
        return -1;
    }
    struct intercom_mosquitto loaded;
    // INTERCOM_SYMBOL (CDynamicLoad's) casts each symbol to the field's own type, which __typeof__
    // took from mosquitto.h.
    INTERCOM_SYMBOL(lib_init, mosquitto_lib_init)
    INTERCOM_SYMBOL(new_client, mosquitto_new)
    INTERCOM_SYMBOL(destroy, mosquitto_destroy)
    INTERCOM_SYMBOL(user_data_set, mosquitto_user_data_set)
    INTERCOM_SYMBOL(int_option, mosquitto_int_option)
    INTERCOM_SYMBOL(will_set, mosquitto_will_set)
    INTERCOM_SYMBOL(username_pw_set, mosquitto_username_pw_set)
    INTERCOM_SYMBOL(tls_set, mosquitto_tls_set)
    INTERCOM_SYMBOL(tls_opts_set, mosquitto_tls_opts_set)
    INTERCOM_SYMBOL(tls_insecure_set, mosquitto_tls_insecure_set)
    INTERCOM_SYMBOL(log_callback_set, mosquitto_log_callback_set)
    INTERCOM_SYMBOL(connect_callback_set, mosquitto_connect_callback_set)
    INTERCOM_SYMBOL(disconnect_callback_set, mosquitto_disconnect_callback_set)
    INTERCOM_SYMBOL(publish_callback_set, mosquitto_publish_callback_set)
    INTERCOM_SYMBOL(message_callback_set, mosquitto_message_callback_set)
    INTERCOM_SYMBOL(connect, mosquitto_connect)
    INTERCOM_SYMBOL(disconnect, mosquitto_disconnect)
    INTERCOM_SYMBOL(subscribe, mosquitto_subscribe)
    INTERCOM_SYMBOL(publish, mosquitto_publish)
    INTERCOM_SYMBOL(socket, mosquitto_socket)
    INTERCOM_SYMBOL(want_write, mosquitto_want_write)
    INTERCOM_SYMBOL(loop_read, mosquitto_loop_read)
    INTERCOM_SYMBOL(loop_write, mosquitto_loop_write)
    INTERCOM_SYMBOL(loop_misc, mosquitto_loop_misc)
    INTERCOM_SYMBOL(strerror, mosquitto_strerror)
    INTERCOM_SYMBOL(connack_string, mosquitto_connack_string)
    *table = loaded;
    return 0;
}
