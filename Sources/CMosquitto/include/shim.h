// libmosquitto's declarations for IntercomMQTT, and the table its functions are reached through:
// the library is loaded with dlopen when a config first has `[mqtt]` (or a command checks a
// broker), so the daemon without MQTT never maps it. Each field takes its type from the real
// declaration (`__typeof__`), so the compiler checks every signature against mosquitto.h.
#ifndef INTERCOM_CMOSQUITTO_SHIM_H
#define INTERCOM_CMOSQUITTO_SHIM_H
#include <stddef.h>
#include <intercom_dynamic_load.h>
#include <mosquitto.h>

/// The soname loaded, from Debian's libmosquitto1.
#define INTERCOM_MOSQUITTO_SONAME "libmosquitto.so.1"

/// The functions the table holds: each (field, function) pair, named once for the struct and the loader.
#define INTERCOM_MOSQUITTO_FUNCTIONS(X) \
    X(lib_init, mosquitto_lib_init) \
    X(new_client, mosquitto_new) \
    X(destroy, mosquitto_destroy) \
    X(user_data_set, mosquitto_user_data_set) \
    X(int_option, mosquitto_int_option) \
    X(will_set, mosquitto_will_set) \
    X(username_pw_set, mosquitto_username_pw_set) \
    X(tls_set, mosquitto_tls_set) \
    X(tls_opts_set, mosquitto_tls_opts_set) \
    X(tls_insecure_set, mosquitto_tls_insecure_set) \
    X(log_callback_set, mosquitto_log_callback_set) \
    X(connect_callback_set, mosquitto_connect_callback_set) \
    X(disconnect_callback_set, mosquitto_disconnect_callback_set) \
    X(publish_callback_set, mosquitto_publish_callback_set) \
    X(message_callback_set, mosquitto_message_callback_set) \
    X(connect, mosquitto_connect) \
    X(disconnect, mosquitto_disconnect) \
    X(subscribe, mosquitto_subscribe) \
    X(publish, mosquitto_publish) \
    X(socket, mosquitto_socket) \
    X(want_write, mosquitto_want_write) \
    X(loop_read, mosquitto_loop_read) \
    X(loop_write, mosquitto_loop_write) \
    X(loop_misc, mosquitto_loop_misc) \
    X(strerror, mosquitto_strerror) \
    X(connack_string, mosquitto_connack_string)

INTERCOM_DECLARE_TABLE(intercom_mosquitto, INTERCOM_MOSQUITTO_FUNCTIONS, intercom_mosquitto_open)

#endif
