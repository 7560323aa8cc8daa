// belle-sip reads every SIP datagram through bctoolbox's bctbx_recvfrom (udp_channel_recv), every
// TCP chunk through bctbx_recv (stream channels) and the SIP inside TLS through bctbx_ssl_read
// (whose record reads come through bctbx_recv). The intercom-full executable exports these
// definitions (linker flag --export-dynamic-symbol), so the dynamic linker binds libbellesip's
// calls here instead of to libbctoolbox: the screen sees exactly the bytes belle-sip is about to
// parse, with no window between looking and reading (a screen run before each iterate could not
// close that window, and one datagram crashes liblinphone 5.1).
// A refused datagram becomes a CRLF keep-alive, which belle-sip ignores without tearing down the
// channel (an error there would end calls with a spoofed peer); from a stranger with no dialog the
// read fails instead, so belle-sip drops the channel it made for that source. A TCP read whose headers the
// header screen refuses ends the connection, which a peer cannot spoof; that screen is per read and
// only when the read starts like a SIP message (so never TLS records). On a stranger's connection
// the stream screen then frames the reads into messages (SIPStreamFramer): it holds back a head
// that has not ended (this hook reads that much less), judges each whole one and cuts refused
// messages out of what belle-sip gets; nothing left to read is EAGAIN, not the end of the stream.
// belle-sip's sends pass through bctbx_sendto/bctbx_send here too: each Call-ID it sends to an
// address is a dialog whose requests that address may send (SIPDialogLedger).
// belle-sip skips CR and LF before a message (keep-alives), so the screens skip them too: a
// leading CRLF must not carry a message past them.
// Every read that is let through is also shown to the source ledger with the address it came
// from (the datagram's source, the TCP peer): calls are recognised by where they come from.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/socket.h>
#include <stdint.h>
#include <sys/types.h>

#include "sip_ingress.h"

typedef ssize_t (*recvfrom_function)(int, void *, size_t, int, struct sockaddr *, socklen_t *);
typedef ssize_t (*recv_function)(int, void *, size_t, int);
typedef int32_t (*ssl_read_function)(void *, unsigned char *, size_t);
typedef ssize_t (*sendto_function)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
typedef ssize_t (*send_function)(int, const void *, size_t, int);

// Process-wide by nature: the next definition in the link chain (found once, never changed after).
static _Atomic(void *) next_recvfrom = NULL;
static _Atomic(void *) next_recv = NULL;
static _Atomic(void *) next_ssl_read = NULL;
static _Atomic(void *) next_sendto = NULL;
static _Atomic(void *) next_send = NULL;

/// libbctoolbox's definition of `name` (the next in the link chain after ours), else `fallback`;
/// looked up once into `slot`.
static void *next_definition(_Atomic(void *) *slot, const char *name, void *fallback) {
    void *next = atomic_load(slot);
    if (next == NULL) {
        next = dlsym(RTLD_NEXT, name);
        if (next == NULL) next = fallback;
        atomic_store(slot, next);
    }
    return next;
}

// SIP over TLS (to a registrar): belle-sip decrypts with bctbx_ssl_read, whose record reads come
// back through bctbx_recv on the same thread. While an ssl_read runs, the recv it makes tells
// which socket that TLS context reads, so the decrypted SIP can be attributed to the peer.
// Thread-local: each reading thread has its own nesting. The table keeps the last few contexts'
// sockets for the reads mbedTLS answers from its buffer without a recv.
static _Thread_local void *reading_tls_context = NULL;
static _Thread_local int reading_tls_socket = -1;
#define TLS_SOCKETS 16
static _Thread_local struct { void *context; int socket; } tls_sockets[TLS_SOCKETS];
static _Thread_local unsigned next_tls_slot = 0;

ssize_t bctbx_recvfrom(int socket, void *buffer, size_t length, int flags, struct sockaddr *address,
                       socklen_t *address_length);
ssize_t bctbx_recv(int socket, void *buffer, size_t length, int flags);
ssize_t bctbx_sendto(int socket, const void *buffer, size_t length, int flags, const struct sockaddr *address,
                     socklen_t address_length);
ssize_t bctbx_send(int socket, const void *buffer, size_t length, int flags);

// The global lookup belle-sip's calls go through finds the executable's definition first only
// when the executable exports it.
int intercom_sip_ingress_in_place(void) {
    return dlsym(RTLD_DEFAULT, "bctbx_recvfrom") == (void *)bctbx_recvfrom
        && dlsym(RTLD_DEFAULT, "bctbx_recv") == (void *)bctbx_recv;
}

__attribute__((visibility("default")))
ssize_t bctbx_recvfrom(int socket, void *buffer, size_t length, int flags, struct sockaddr *address,
                       socklen_t *address_length) {
    recvfrom_function next = (recvfrom_function)next_definition(&next_recvfrom, "bctbx_recvfrom", (void *)recvfrom);
    ssize_t count = next(socket, buffer, length, flags, address, address_length);
    if (count <= 0 || (flags & MSG_PEEK) != 0 || buffer == NULL) return count;
    int refused = intercom_sip_message_refused(buffer, (size_t)count, address,
                                               address_length != NULL ? (unsigned int)*address_length : 0, socket);
    if (refused == 2) {
        // A stranger with no dialog: the read fails, and belle-sip drops the channel (and its 64 KB
        // buffer) it made for this source address and port on the datagram's arrival.
        errno = EBADMSG;
        return -1;
    }
    if (refused != 0) {
        static const char keep_alive[] = "\r\n\r\n";
        if (length >= sizeof keep_alive - 1) {
            memcpy(buffer, keep_alive, sizeof keep_alive - 1);
            return (ssize_t)(sizeof keep_alive - 1);
        }
        errno = EAGAIN;
        return -1;
    }
    if (address != NULL && address_length != NULL) {
        intercom_sip_message_observed(buffer, (size_t)count, address, (unsigned int)*address_length);
    }
    return count;
}

/// The first byte after any CR and LF, or NULL when there is none in the first `count`.
static const unsigned char *after_line_breaks(const unsigned char *bytes, ssize_t count) {
    ssize_t index = 0;
    while (index < count && (bytes[index] == '\r' || bytes[index] == '\n')) index++;
    return index < count ? bytes + index : NULL;
}

__attribute__((visibility("default")))
ssize_t bctbx_recv(int socket, void *buffer, size_t length, int flags) {
    recv_function next = (recv_function)next_definition(&next_recv, "bctbx_recv", (void *)recv);
    int plain = reading_tls_context == NULL && (flags & MSG_PEEK) == 0 && buffer != NULL;
    // The stream screen may hold back the start of a head; what it holds goes in front of this read.
    size_t held = plain ? intercom_sip_stream_held(socket) : 0;
    if (held > 0 && held >= length) {
        errno = EAGAIN;
        return -1;
    }
    ssize_t count = next(socket, buffer, length - held, flags);
    if (count == 0 && plain) intercom_sip_stream_ended(socket);
    if (count <= 0 || (flags & MSG_PEEK) != 0 || buffer == NULL) return count;
    intercom_sip_stream_socket_read(socket);
    // SIP methods and "SIP/2.0" start with an upper-case letter; TLS records never do.
    const unsigned char *first = after_line_breaks(buffer, count);
    if (first != NULL && *first >= 'A' && *first <= 'Z'
        && intercom_sip_message_refused(buffer, (size_t)count, NULL, 0, socket) != 0) {
        return 0;
    }
    if (reading_tls_context != NULL) {
        // A TLS record for bctbx_ssl_read: the SIP in it is observed decrypted, there.
        reading_tls_socket = socket;
        return count;
    }
    // Every read, not only those that start a message: a Call-ID in the second half of a
    // header split across reads came from the same peer.
    struct sockaddr_storage peer;
    socklen_t peer_length = sizeof peer;
    if (getpeername(socket, (struct sockaddr *)&peer, &peer_length) == 0) {
        intercom_sip_message_observed(buffer, (size_t)count, (const struct sockaddr *)&peer, (unsigned int)peer_length);
    }
    // A stranger's connection: each message is judged whole, refused ones cut out (the connection
    // stays up); -1 means it sent what is no SIP it may send, and the connection ends.
    long kept = intercom_sip_stream_screened(socket, buffer, (size_t)count, length);
    if (kept < 0) return 0;
    if (kept == 0) {
        errno = EAGAIN;
        return -1;
    }
    return (ssize_t)kept;
}

/// Whether a write starts like SIP (a method or "SIP/2.0", after keep-alive line breaks): RTP,
/// STUN and TLS records through the same functions never do.
static int looks_like_sip(const void *buffer, size_t length) {
    if (buffer == NULL || length == 0) return 0;
    const unsigned char *first = after_line_breaks(buffer, (ssize_t)length);
    return first != NULL && *first >= 'A' && *first <= 'Z';
}

__attribute__((visibility("default")))
ssize_t bctbx_sendto(int socket, const void *buffer, size_t length, int flags, const struct sockaddr *address,
                     socklen_t address_length) {
    sendto_function next = (sendto_function)next_definition(&next_sendto, "bctbx_sendto", (void *)sendto);
    ssize_t count = next(socket, buffer, length, flags, address, address_length);
    if (count > 0 && looks_like_sip(buffer, (size_t)count)) {
        intercom_sip_message_sent(buffer, (size_t)count, address, (unsigned int)address_length, socket);
    }
    return count;
}

__attribute__((visibility("default")))
ssize_t bctbx_send(int socket, const void *buffer, size_t length, int flags) {
    send_function next = (send_function)next_definition(&next_send, "bctbx_send", (void *)send);
    ssize_t count = next(socket, buffer, length, flags);
    if (count > 0 && looks_like_sip(buffer, (size_t)count)) {
        intercom_sip_message_sent(buffer, (size_t)count, NULL, 0, socket);
    }
    return count;
}

static int tls_socket_of(void *context) {
    for (unsigned i = 0; i < TLS_SOCKETS; i++) {
        if (tls_sockets[i].context == context) return tls_sockets[i].socket;
    }
    return -1;
}

static void remember_tls_socket(void *context, int socket) {
    for (unsigned i = 0; i < TLS_SOCKETS; i++) {
        if (tls_sockets[i].context == context) {
            tls_sockets[i].socket = socket;
            return;
        }
    }
    tls_sockets[next_tls_slot].context = context;
    tls_sockets[next_tls_slot].socket = socket;
    next_tls_slot = (next_tls_slot + 1) % TLS_SOCKETS;
}

__attribute__((visibility("default")))
int32_t bctbx_ssl_read(void *context, unsigned char *buffer, size_t length) {
    ssl_read_function next = (ssl_read_function)next_definition(&next_ssl_read, "bctbx_ssl_read", NULL);
    if (next == NULL) return -1;
    reading_tls_context = context;
    reading_tls_socket = -1;
    int32_t count = next(context, buffer, length);
    reading_tls_context = NULL;
    if (reading_tls_socket >= 0) remember_tls_socket(context, reading_tls_socket);
    if (count <= 0 || buffer == NULL) return count;
    // Screened like any SIP read: the same parser gets it next.
    int socket = tls_socket_of(context);
    if (intercom_sip_message_refused(buffer, (size_t)count, NULL, 0, socket) != 0) return 0;
    struct sockaddr_storage peer;
    socklen_t peer_length = sizeof peer;
    if (socket >= 0 && getpeername(socket, (struct sockaddr *)&peer, &peer_length) == 0) {
        intercom_sip_message_observed(buffer, (size_t)count, (const struct sockaddr *)&peer, (unsigned int)peer_length);
    }
    return count;
}
