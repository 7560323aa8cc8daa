// gst-rtsp-server and appsrc for the simulated panel's camera and the simulated operator's HLS cameras, plus what Swift cannot call:
// g_signal_connect (a macro over an untyped GCallback) and the variadic token constructor.
#ifndef INTERCOM_CGSTRTSPSERVER_SHIM_H
#define INTERCOM_CGSTRTSPSERVER_SHIM_H

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
// appsink: the simulator tests read the pictures a camera pipeline put out (CameraFeedStartTests).
#include <gst/app/gstappsink.h>
#include <gst/rtsp-server/rtsp-server.h>

/// "media-configure" on a factory: a new client's pipeline exists and is not yet prepared.
typedef void (*intercom_gst_media_configure_cb)(GstRTSPMediaFactory *factory, GstRTSPMedia *media, gpointer data);
/// "unprepared" on a media: its pipeline is gone (the client left or the server stopped).
typedef void (*intercom_gst_media_unprepared_cb)(GstRTSPMedia *media, gpointer data);
/// Both connect with `release` as the closure's destroy notify: it runs once, when the handler goes
/// (its object finalized), and drops the reference `data` holds.
static inline gulong intercom_gst_on_media_configure(GstRTSPMediaFactory *factory, intercom_gst_media_configure_cb cb,
                                                     gpointer data, GClosureNotify release) {
    return g_signal_connect_data(factory, "media-configure", G_CALLBACK(cb), data, release, (GConnectFlags)0);
}

static inline gulong intercom_gst_on_media_unprepared(GstRTSPMedia *media, intercom_gst_media_unprepared_cb cb,
                                                      gpointer data, GClosureNotify release) {
    return g_signal_connect_data(media, "unprepared", G_CALLBACK(cb), data, release, (GConnectFlags)0);
}

/// A token that grants the factory role `role` (gst_rtsp_token_new is variadic).
static inline GstRTSPToken *intercom_gst_token_for_role(const char *role) {
    return gst_rtsp_token_new(GST_RTSP_TOKEN_MEDIA_FACTORY_ROLE, G_TYPE_STRING, role, NULL);
}

/// The element named `name` inside the media's pipeline, with a reference the caller drops
/// (gst_object_unref), or NULL.
static inline GstElement *intercom_gst_media_child(GstRTSPMedia *media, const char *name) {
    GstElement *bin = gst_rtsp_media_get_element(media);
    if (!bin) return NULL;
    GstElement *child = GST_IS_BIN(bin) ? gst_bin_get_by_name(GST_BIN(bin), name) : NULL;
    gst_object_unref(bin);
    return child;
}

/// The element named `name` inside a pipeline made by gst_parse_launch, with a reference the caller
/// drops (gst_object_unref), or NULL.
static inline GstElement *intercom_gst_bin_child(GstElement *bin, const char *name) {
    return GST_IS_BIN(bin) ? gst_bin_get_by_name(GST_BIN(bin), name) : NULL;
}

/// Closes every client connection (their medias unprepare on the server's threads).
static inline GstRTSPFilterResult intercom_gst_remove_client(GstRTSPServer *server, GstRTSPClient *client, gpointer data) {
    (void)server; (void)client; (void)data;
    return GST_RTSP_FILTER_REMOVE;
}

static inline void intercom_gst_close_clients(GstRTSPServer *server) {
    GList *left = gst_rtsp_server_client_filter(server, intercom_gst_remove_client, NULL);
    g_list_free_full(left, g_object_unref);
}

/// Whether `element` is PLAYING now (its state read under its lock). An appsrc with do-timestamp stamps
/// a buffer when it is pushed with its clock's time less its base time; before its first PLAYING it can
/// have the pipeline's clock while its base time is still 0, and a buffer pushed then is stamped with the
/// clock's absolute time (the machine's uptime), so the pipeline's sinks hold that stream for that long.
/// A bin sets a child's base time before the child's state changes, so PLAYING means the base time is set.
static inline gboolean intercom_gst_element_is_playing(GstElement *element) {
    GST_OBJECT_LOCK(element);
    gboolean playing = GST_STATE(element) == GST_STATE_PLAYING;
    GST_OBJECT_UNLOCK(element);
    return playing;
}

/// A new buffer holding a copy of `bytes`, stamped by appsrc (do-timestamp) when pushed.
static inline GstBuffer *intercom_gst_buffer_copying(const void *bytes, gsize size) {
    GstBuffer *buffer = gst_buffer_new_allocate(NULL, size, NULL);
    if (buffer) gst_buffer_fill(buffer, 0, bytes, size);
    return buffer;
}

static inline GstBuffer *intercom_gst_buffer_ref(GstBuffer *buffer) { return gst_buffer_ref(buffer); }
static inline void intercom_gst_buffer_unref(GstBuffer *buffer) { gst_buffer_unref(buffer); }

#endif
