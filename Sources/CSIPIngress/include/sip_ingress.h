#ifndef INTERCOM_SIP_INGRESS_H
#define INTERCOM_SIP_INGRESS_H

#include <stddef.h>
#include <sys/socket.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Defined in Swift (IntercomPhone, SIPIngressScreen.swift): non-zero when liblinphone must not
/// see this SIP message. It may run on any thread belle-sip reads on. The message came from
/// `address` when that is known (a datagram), else from the peer of `socket` (-1: unknown);
/// both are only looked at for a message it refuses, to say where that came from.
int intercom_sip_message_refused(const void *bytes, size_t length, const struct sockaddr *address,
                                 unsigned int address_length, int socket);

/// Defined in Swift (SIPIngressScreen.swift): a message belle-sip is about to parse arrived from
/// `address` (the datagram's source, or the TCP connection's peer). Records which address each
/// Call-ID came from, so a call is known by where its packets came from, not by its headers.
void intercom_sip_message_observed(const void *bytes, size_t length, const struct sockaddr *address,
                                   unsigned int address_length);

/// Defined in Swift (SIPIngressScreen.swift): belle-sip sent this SIP message to `address` (a
/// datagram's destination), else to the peer of `socket`. Every Call-ID in it becomes a dialog with
/// that address, whose requests a stranger may then send (SIPDialogLedger).
void intercom_sip_message_sent(const void *bytes, size_t length, const struct sockaddr *address,
                               unsigned int address_length, int socket);

/// Defined in Swift (SIPIngressScreen.swift): how many bytes the stream screen holds back for this
/// TCP socket (the start of a message head that has not ended). The hook reads that much less.
size_t intercom_sip_stream_held(int socket);

/// Defined in Swift (SIPIngressScreen.swift): screens `count` bytes just read from a TCP socket into
/// `buffer` (room for `capacity`): puts in front what belle-sip may read and returns how many (0:
/// nothing yet), or -1 when the connection must end.
long intercom_sip_stream_screened(int socket, void *buffer, size_t count, size_t capacity);

/// Defined in Swift (SIPIngressScreen.swift): the peer closed this TCP socket.
void intercom_sip_stream_ended(int socket);

/// Non-zero when belle-sip's reads bind to these hooks (the executable exports them); zero when
/// it was linked without the export flags and belle-sip reads through libbctoolbox directly.
int intercom_sip_ingress_in_place(void);

/// Notes that belle-sip read from this stream socket (a TCP or TLS connection): the phone thread
/// wakes when it becomes readable. Called by the bctbx_recv hook (sip_stream_sockets.c).
void intercom_sip_stream_socket_read(int socket);

/// Copies up to `capacity` noted stream sockets that are still the sockets they were into `into`
/// and returns how many; closed or reused numbers are dropped on the way.
int intercom_sip_stream_sockets(int *into, int capacity);

/// Drops a noted socket (poll reported it hung up or invalid): the phone thread stops watching it.
void intercom_sip_stream_socket_forget(int socket);

#ifdef __cplusplus
}
#endif

#endif
