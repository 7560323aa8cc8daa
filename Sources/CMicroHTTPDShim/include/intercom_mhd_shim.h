#ifndef INTERCOM_MHD_SHIM_H
#define INTERCOM_MHD_SHIM_H
// MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift cannot call.
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Starts a thread-per-connection daemon bound to 127.0.0.1:port (0 = any free port)
/// with SO_REUSEADDR (MHD's default), so a test can restart a server on the port it just
/// released; a port another socket listens on is refused (NULL).
/// `random` must stay valid until MHD_stop_daemon returns (MHD keeps the pointer).
struct MHD_Daemon *intercom_mhd_start_loopback(uint16_t port,
                                               MHD_AccessHandlerCallback handler,
                                               void *handler_cls,
                                               const void *random,
                                               size_t random_size,
                                               unsigned int connection_timeout_s);

/// Starts a thread-per-connection daemon bound to `host` (an IPv4 or IPv6 literal) and `port`
/// (0 = any free port), calling `completed` when each request ends (so per-request state such as
/// a POST body can be freed even when the client goes away). NULL for a bad address or a taken port.
struct MHD_Daemon *intercom_mhd_start_bound(const char *host,
                                           uint16_t port,
                                           MHD_AccessHandlerCallback handler,
                                           void *handler_cls,
                                           MHD_RequestCompletedCallback completed,
                                           void *completed_cls,
                                           unsigned int connection_timeout_s);

/// The port actually bound, or 0 when unknown.
uint16_t intercom_mhd_bound_port(struct MHD_Daemon *daemon);

/// The connection's socket, or -1: the simulated panel's silent alarm stream peeks at it to
/// notice a client that went away without writing anything (MHD_get_connection_info is variadic).
int intercom_mhd_connection_fd(struct MHD_Connection *connection);

#endif
