// libmosquitto's declarations for IntercomMQTT, and the table its functions are reached through:
// the library is loaded with dlopen when a config first has `[mqtt]` (or a command checks a
// broker), so the daemon without MQTT never maps it. Each field takes its type from the real
// declaration (`__typeof__`), so the compiler checks every signature against mosquitto.h.
#ifndef INTERCOM_CMOSQUITTO_SHIM_H
#define INTERCOM_CMOSQUITTO_SHIM_H
#include <stddef.h>
#include <mosquitto.h>

/// The soname loaded, from Debian's libmosquitto1.
#define INTERCOM_MOSQUITTO_SONAME "libmosquitto.so.1"

struct intercom_mosquitto {
    __typeof__(mosquitto_lib_init) *_Nonnull lib_init;
    __typeof__(mosquitto_new) *_Nonnull new_client;
    __typeof__(mosquitto_destroy) *_Nonnull destroy;
    __typeof__(mosquitto_user_data_set) *_Nonnull user_data_set;
    __typeof__(mosquitto_int_option) *_Nonnull int_option;
    __typeof__(mosquitto_will_set) *_Nonnull will_set;
    __typeof__(mosquitto_username_pw_set) *_Nonnull username_pw_set;
    __typeof__(mosquitto_tls_set) *_Nonnull tls_set;
    __typeof__(mosquitto_tls_opts_set) *_Nonnull tls_opts_set;
    __typeof__(mosquitto_tls_insecure_set) *_Nonnull tls_insecure_set;
    __typeof__(mosquitto_log_callback_set) *_Nonnull log_callback_set;
    __typeof__(mosquitto_connect_callback_set) *_Nonnull connect_callback_set;
    __typeof__(mosquitto_disconnect_callback_set) *_Nonnull disconnect_callback_set;
    __typeof__(mosquitto_publish_callback_set) *_Nonnull publish_callback_set;
    __typeof__(mosquitto_message_callback_set) *_Nonnull message_callback_set;
    __typeof__(mosquitto_connect) *_Nonnull connect;
    __typeof__(mosquitto_disconnect) *_Nonnull disconnect;
    __typeof__(mosquitto_subscribe) *_Nonnull subscribe;
    __typeof__(mosquitto_publish) *_Nonnull publish;
    __typeof__(mosquitto_socket) *_Nonnull socket;
    __typeof__(mosquitto_want_write) *_Nonnull want_write;
    __typeof__(mosquitto_loop_read) *_Nonnull loop_read;
    __typeof__(mosquitto_loop_write) *_Nonnull loop_write;
    __typeof__(mosquitto_loop_misc) *_Nonnull loop_misc;
    __typeof__(mosquitto_strerror) *_Nonnull strerror;
    __typeof__(mosquitto_connack_string) *_Nonnull connack_string;
};

/// Loads `soname` and fills `*table` (uninitialised memory is fine): 0 on success; otherwise -1,
/// `*table` untouched and dlopen's or dlsym's reason in `error`. The handle is never closed: the
/// functions stay valid for the life of the process.
int intercom_mosquitto_open(const char *_Nonnull soname, struct intercom_mosquitto *_Nonnull table,
                            char *_Nonnull error, size_t error_size);

#endif
