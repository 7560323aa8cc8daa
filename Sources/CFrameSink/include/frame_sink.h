#ifndef INTERCOM_FRAME_SINK_H
#define INTERCOM_FRAME_SINK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Called on a mediastreamer ticker thread with one decoded I420 picture.
/// The planes are only valid during the call: copy what you keep.
typedef void (*intercom_frame_callback)(void *user, int width, int height,
                                        const uint8_t *y, int y_stride,
                                        const uint8_t *u, int u_stride,
                                        const uint8_t *v, int v_stride);

/// The name liblinphone is given as its video display filter.
#define INTERCOM_FRAME_SINK_NAME "IntercomFrameSink"

typedef struct intercom_frame_sink intercom_frame_sink;

/// Registers the sink filter with one mediastreamer factory (one per liblinphone core).
/// `factory` is an `MSFactory *`. The returned registration must outlive the factory;
/// free it with intercom_frame_sink_free after the core is gone. NULL on failure.
intercom_frame_sink *intercom_frame_sink_register(void *factory,
                                                  intercom_frame_callback callback,
                                                  void *user);
void intercom_frame_sink_free(intercom_frame_sink *sink);
const char *intercom_frame_sink_name(void);

#ifdef __cplusplus
}
#endif
#endif
