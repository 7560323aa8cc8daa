// A mediastreamer2 display filter that hands each decoded remote video frame to a callback.
// Each registration owns its own MSFilterDesc, so a filter instance finds its callback from
// f->desc alone: no table shared between cores, no global state.
#include "frame_sink.h"

#include <stddef.h>
#include <stdlib.h>
#include <mediastreamer2/msfilter.h>
#include <mediastreamer2/msfactory.h>
#include <mediastreamer2/msvideo.h>
#include <mediastreamer2/msinterfaces.h>

struct intercom_frame_sink {
    MSFilterDesc desc;  // first member: f->desc points here
    intercom_frame_callback callback;
    void *user;
};

static struct intercom_frame_sink *sink_of(MSFilter *f) {
    return (struct intercom_frame_sink *)f->desc;
}

static void sink_process(MSFilter *f) {
    struct intercom_frame_sink *sink = sink_of(f);
    mblk_t *newest = NULL;
    mblk_t *m;
    // Input 0 carries the remote decoded picture: keep only the newest of this tick.
    if (f->inputs[0] != NULL) {
        while ((m = ms_queue_get(f->inputs[0])) != NULL) {
            if (newest != NULL) freemsg(newest);
            newest = m;
        }
    }
    // Input 1 is the local preview, which we never show.
    if (f->inputs[1] != NULL) ms_queue_flush(f->inputs[1]);
    if (newest == NULL) return;
    MSPicture pic;
    if (ms_yuv_buf_init_from_mblk(&pic, newest) == 0 && sink->callback != NULL) {
        sink->callback(sink->user, pic.w, pic.h,
                       pic.planes[0], pic.strides[0],
                       pic.planes[1], pic.strides[1],
                       pic.planes[2], pic.strides[2]);
    }
    freemsg(newest);
}

static int sink_ignore(MSFilter *f, void *arg) {
    (void)f; (void)arg;
    return 0;
}

static int sink_get_window_id(MSFilter *f, void *arg) {
    (void)f;
    if (arg != NULL) *(void **)arg = NULL;
    return 0;
}

static MSFilterMethod sink_methods[] = {
    {MS_VIDEO_DISPLAY_SET_NATIVE_WINDOW_ID, sink_ignore},
    {MS_VIDEO_DISPLAY_GET_NATIVE_WINDOW_ID, sink_get_window_id},
    {MS_FILTER_SET_VIDEO_SIZE, sink_ignore},
    {MS_VIDEO_DISPLAY_ENABLE_AUTOFIT, sink_ignore},
    {MS_VIDEO_DISPLAY_ENABLE_MIRRORING, sink_ignore},
    {MS_VIDEO_DISPLAY_SET_LOCAL_VIEW_MODE, sink_ignore},
    {MS_VIDEO_DISPLAY_SET_LOCAL_VIEW_SCALEFACTOR, sink_ignore},
    {MS_VIDEO_DISPLAY_SET_BACKGROUND_COLOR, sink_ignore},
    {MS_VIDEO_DISPLAY_SET_DEVICE_ORIENTATION, sink_ignore},
    {MS_VIDEO_DISPLAY_SET_MODE, sink_ignore},
    {0, NULL},
};

const char *intercom_frame_sink_name(void) { return INTERCOM_FRAME_SINK_NAME; }

intercom_frame_sink *intercom_frame_sink_register(void *factory, intercom_frame_callback callback,
                                                  void *user) {
    MSFactory *ms_factory = (MSFactory *)factory;
    if (ms_factory == NULL) return NULL;
    struct intercom_frame_sink *sink = calloc(1, sizeof(*sink));
    if (sink == NULL) return NULL;
    sink->callback = callback;
    sink->user = user;
    sink->desc.id = MS_FILTER_PLUGIN_ID;
    sink->desc.name = INTERCOM_FRAME_SINK_NAME;
    sink->desc.text = "Hands decoded call video to intercom";
    sink->desc.category = MS_FILTER_OTHER;
    sink->desc.ninputs = 2;
    sink->desc.noutputs = 0;
    sink->desc.process = sink_process;
    sink->desc.methods = sink_methods;
    ms_factory_register_filter(ms_factory, &sink->desc);
    return sink;
}

void intercom_frame_sink_free(intercom_frame_sink *sink) { free(sink); }
