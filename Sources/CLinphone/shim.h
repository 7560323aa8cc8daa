#ifndef INTERCOM_CLINPHONE_SHIM_H
#define INTERCOM_CLINPHONE_SHIM_H
#include <linphone/core.h>
#include <linphone/logging.h>
#include <linphone/lpconfig.h>
#include <mediastreamer2/msfactory.h>
#include <mediastreamer2/mediastream.h>
#include <mediastreamer2/msrtp.h>
#include <bctoolbox/list.h>

// Exported by liblinphone 5.1 but missing from its public headers. MediaStream's layout is
// mediastreamer2's public API, so reaching the RTP sender through it stays on public ground.
MediaStream *linphone_call_get_stream(LinphoneCall *call, LinphoneStreamType type);

/// Sets how long each RFC 2833 digit lasts on the wire, in RTP timestamp units of the
/// telephone-event clock (8000 per second for a G.711 call). liblinphone 5.1 has no setting for it.
/// Returns 0 on success, -1 when the call has no running audio stream.
static inline int intercom_call_set_dtmf_duration(LinphoneCall *call, int duration_units) {
    MediaStream *stream = linphone_call_get_stream(call, LinphoneStreamTypeAudio);
    if (stream == NULL || stream->rtpsend == NULL) return -1;
    return ms_filter_call_method(stream->rtpsend, MS_RTP_SEND_SET_DTMF_DURATION, &duration_units);
}

/// RTP packets received so far on the call's audio and video sessions: the caller's media
/// reached us (what "media flowing" means before an automatic door opening).
static inline unsigned long long intercom_call_rtp_packets_received(LinphoneCall *call) {
    unsigned long long total = 0;
    const LinphoneStreamType types[2] = {LinphoneStreamTypeAudio, LinphoneStreamTypeVideo};
    for (int i = 0; i < 2; i++) {
        MediaStream *stream = linphone_call_get_stream(call, types[i]);
        if (stream != NULL && stream->sessions.rtp_session != NULL) {
            total += rtp_session_get_stats(stream->sessions.rtp_session)->packet_recv;
        }
    }
    return total;
}

static inline void *intercom_core_ms_factory(LinphoneCore *core) {
    return (void *)linphone_core_get_ms_factory(core);
}
#endif
