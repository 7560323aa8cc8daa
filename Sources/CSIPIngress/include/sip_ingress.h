#ifndef INTERCOM_SIP_INGRESS_H
#define INTERCOM_SIP_INGRESS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Defined in Swift (IntercomCore, SIPIngressScreen.swift): non-zero when liblinphone must not
/// see this SIP message. Pure: it may run on any thread belle-sip reads on.
int intercom_sip_message_refused(const void *bytes, size_t length);

/// How many datagrams the read hook replaced so far (for the log and tests).
unsigned long intercom_sip_ingress_replaced_count(void);

#ifdef __cplusplus
}
#endif

#endif
