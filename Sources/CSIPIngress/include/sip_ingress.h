#ifndef INTERCOM_SIP_INGRESS_H
#define INTERCOM_SIP_INGRESS_H

#include <stddef.h>
#include <sys/socket.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Defined in Swift (IntercomPhone, SIPIngressScreen.swift): non-zero when liblinphone must not
/// see this SIP message. Pure: it may run on any thread belle-sip reads on.
int intercom_sip_message_refused(const void *bytes, size_t length);

/// Defined in Swift (SIPIngressScreen.swift): a message belle-sip is about to parse arrived from
/// `address` (the datagram's source, or the TCP connection's peer). Records which address each
/// Call-ID came from, so a call is known by where its packets came from, not by its headers.
void intercom_sip_message_observed(const void *bytes, size_t length, const struct sockaddr *address,
                                   unsigned int address_length);

/// How many datagrams the read hook replaced so far (for the log and tests).
unsigned long intercom_sip_ingress_replaced_count(void);

#ifdef __cplusplus
}
#endif

#endif
