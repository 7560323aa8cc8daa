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
/// Moves a running call's sound to another playback card. liblinphone 5.1's
/// linphone_call_set_output_audio_device asks mediastreamer2 to switch the card inside the
/// existing writer (MS_AUDIO_PLAYBACK_SET_INTERNAL_ID), which the PulseAudio and ALSA writers do
/// not implement: it logs that and the sound stays where it was. So the writer is replaced here,
/// as the stream would build it: the graph is taken off its ticker, the old writer unlinked and
/// destroyed, a writer of the new card made with the same rate and channels and linked in its
/// place, and the graph put back on the ticker. Run on the thread that owns the core.
/// Returns 0, -1 without a running audio writer, -2 for an unknown card, -3 when no writer can
/// be made for it.
static inline int intercom_call_move_playback(LinphoneCall *call, const char *card_id) {
    AudioStream *stream = (AudioStream *)linphone_call_get_stream(call, LinphoneStreamTypeAudio);
    if (stream == NULL || stream->soundwrite == NULL || stream->soundwrite->inputs == NULL
        || stream->soundwrite->inputs[0] == NULL || stream->ms.sessions.ticker == NULL) return -1;
    MSSndCard *card = ms_snd_card_manager_get_card(ms_factory_get_snd_card_manager(stream->ms.factory), card_id);
    if (card == NULL) return -2;
    MSFilter *old = stream->soundwrite;
    MSCPoint upstream = old->inputs[0]->prev;
    MSFilter *fresh = ms_snd_card_create_writer(card);
    if (fresh == NULL) return -3;
    int rate = 8000, channels = 1;
    ms_filter_call_method(old, MS_FILTER_GET_SAMPLE_RATE, &rate);
    ms_filter_call_method(old, MS_FILTER_GET_NCHANNELS, &channels);
    ms_filter_call_method(fresh, MS_FILTER_SET_SAMPLE_RATE, &rate);
    ms_filter_call_method(fresh, MS_FILTER_SET_NCHANNELS, &channels);
    MSTicker *ticker = stream->ms.sessions.ticker;
    ms_ticker_detach(ticker, old);
    ms_filter_unlink(upstream.filter, upstream.pin, old, 0);
    ms_filter_destroy(old);
    ms_filter_link(upstream.filter, upstream.pin, fresh, 0);
    stream->soundwrite = fresh;
    MSSndCard *previous = stream->playcard;
    stream->playcard = ms_snd_card_ref(card);
    if (previous != NULL) ms_snd_card_unref(previous);
    ms_ticker_attach(ticker, upstream.filter);
    return 0;
}

#endif
