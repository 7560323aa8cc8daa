#include "intercom_mhd_shim.h"
#include <string.h>
#include <netinet/in.h>
#include <arpa/inet.h>

struct MHD_Daemon *intercom_mhd_start_loopback(uint16_t port,
                                               MHD_AccessHandlerCallback handler,
                                               void *handler_cls,
                                               const void *random,
                                               size_t random_size,
                                               unsigned int connection_timeout_s) {
    struct sockaddr_in addr;
    memset(&addr, 0, sizeof(addr));
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    // MHD copies the sockaddr while binding, so a stack address is enough.
    // No MHD_OPTION_LISTENING_ADDRESS_REUSE: on Linux it means SO_REUSEPORT, and two servers
    // would then share a port silently. MHD's default already sets SO_REUSEADDR.
    return MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD,
                            port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)&addr,
                            MHD_OPTION_DIGEST_AUTH_RANDOM, random_size, random,
                            MHD_OPTION_NONCE_NC_SIZE, (unsigned int)64,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_s,
                            MHD_OPTION_END);
}

struct MHD_Daemon *intercom_mhd_start_bound(const char *host,
                                           uint16_t port,
                                           MHD_AccessHandlerCallback handler,
                                           void *handler_cls,
                                           MHD_RequestCompletedCallback completed,
                                           void *completed_cls,
                                           unsigned int connection_timeout_s) {
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    const struct sockaddr *addr;
    unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD;
    memset(&v4, 0, sizeof(v4));
    memset(&v6, 0, sizeof(v6));
    if (inet_pton(AF_INET, host, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(port);
        addr = (const struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, host, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(port);
        addr = (const struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
    } else {
        return NULL;
    }
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, addr,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_s,
                            MHD_OPTION_END);
}

uint16_t intercom_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

int intercom_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int)info->connect_fd;
}
