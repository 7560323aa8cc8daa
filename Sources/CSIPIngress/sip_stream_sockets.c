// The stream sockets (TCP, TLS) belle-sip has read SIP from: the accepted connections of our
// listeners and the connections it opened to a registrar or proxy. liblinphone does not hand them
// out, and a request on them (an INVITE through the registrar's connection) must wake the phone
// thread as a datagram on the UDP socket does, or the thread could only find it on its next timed
// iterate. bctbx_recv (sip_ingress.c) notes every socket it reads; the phone thread polls them.
// A socket is kept with its device and inode: a number belle-sip closed and the process reused for
// something else (an HTTP connection of another thread) is not the same socket and is dropped.
#include <pthread.h>
#include <sys/stat.h>

#include "sip_ingress.h"

#define STREAM_SOCKETS 64

// Process-wide by nature, like belle-sip's own sockets; guarded by `lock` (the hooks run on the
// phone thread today, but nothing in belle-sip promises that).
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct { int socket; dev_t device; ino_t inode; } sockets[STREAM_SOCKETS];
static int count = 0;

void intercom_sip_stream_socket_read(int socket) {
    struct stat status;
    if (socket < 0 || fstat(socket, &status) != 0 || !S_ISSOCK(status.st_mode)) return;
    pthread_mutex_lock(&lock);
    int index = 0;
    while (index < count && sockets[index].socket != socket) index++;
    if (index == count) {
        // Full (64 connections at once is far past a home intercom's): the oldest goes; its
        // requests are still read on the thread's timed iterate.
        if (count == STREAM_SOCKETS) {
            for (int i = 1; i < count; i++) sockets[i - 1] = sockets[i];
            index = count - 1;
        } else {
            count++;
        }
    }
    sockets[index].socket = socket;
    sockets[index].device = status.st_dev;
    sockets[index].inode = status.st_ino;
    pthread_mutex_unlock(&lock);
}

int intercom_sip_stream_sockets(int *into, int capacity) {
    pthread_mutex_lock(&lock);
    int kept = 0;
    for (int i = 0; i < count; i++) {
        struct stat status;
        if (fstat(sockets[i].socket, &status) != 0 || status.st_dev != sockets[i].device
            || status.st_ino != sockets[i].inode) continue;
        sockets[kept++] = sockets[i];
    }
    count = kept;
    int copied = 0;
    for (; copied < count && copied < capacity; copied++) into[copied] = sockets[copied].socket;
    pthread_mutex_unlock(&lock);
    return copied;
}

void intercom_sip_stream_socket_forget(int socket) {
    pthread_mutex_lock(&lock);
    int kept = 0;
    for (int i = 0; i < count; i++) {
        if (sockets[i].socket != socket) sockets[kept++] = sockets[i];
    }
    count = kept;
    pthread_mutex_unlock(&lock);
}
