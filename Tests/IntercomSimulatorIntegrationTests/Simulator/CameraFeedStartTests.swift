import CGstRTSPServer
import Foundation
@testable import IntercomSimulator
import IntercomTestSupport
import Testing

/// The camera and a client pipeline that is still starting. The camera's `appsrc` stamps each picture
/// when it is pushed (clock time less base time). While gst-rtsp-server takes a client's pipeline to
/// PLAYING there is a moment when the `appsrc` has the pipeline's clock but its base time is still 0:
/// a picture pushed then is stamped with the clock's absolute time (the machine's uptime), and the
/// RTSP server's sinks, which wait for each packet's time, held that client's stream for as long.
/// Under load the moment widens, and one client in a few dozen got nothing (docs/PROOF.md).
/// Here the moment is made on purpose: the pipeline PAUSED, its `appsrc` given the clock by hand.
@Suite(.serialized) struct CameraFeedStartTests {
    private let second: GstClockTime = 1_000_000_000

    @Test("a picture source that has its clock but not yet its base time gets no picture until it plays")
    func noPictureBeforePlaying() async throws {
        #expect(GStreamerElements.problem([("appsrc", "gstreamer1.0-plugins-base"), ("appsink", "gstreamer1.0-plugins-base")]) == nil)
        // sync=false: the sink hands over the first picture at once, whatever its stamp, so the stamp can be read.
        let launch = RTSPStreamProfile.pictureSource(fps: 25) + " ! appsink name=sink sync=false max-buffers=1 drop=true"
        var parseError: UnsafeMutablePointer<GError>?
        let built = gst_parse_launch(launch, &parseError)
        defer { g_clear_error(&parseError) }
        let pipeline = try #require(built, "the test pipeline did not parse: \(GStreamerElements.message(parseError))")
        let source = try #require(intercom_gst_bin_child(pipeline, RTSPStreamProfile.sourceName))
        let sink = try #require(intercom_gst_bin_child(pipeline, "sink"))
        defer {
            _ = gst_element_set_state(pipeline, GST_STATE_NULL)
            gst_object_unref(sink)
            gst_object_unref(pipeline)
        }
        // The moment: PAUSED (a live source does not preroll), the clock given, the base time still 0.
        _ = gst_element_set_state(pipeline, GST_STATE_PAUSED)
        let clock = gst_system_clock_obtain()
        _ = gst_element_set_clock(source, clock)
        if let clock { gst_object_unref(clock) }

        let feed = CameraFeed(fps: 25, label: "START")
        feed.add(CameraFeed.Source(video: source, audio: nil), media: 1)
        feed.start()
        defer { feed.stop() }
        // A few ticks of the camera while the pipeline is not playing.
        await TestPatience.eventually(within: .seconds(10)) { feed.frames >= 5 }
        #expect(feed.frames >= 5, "the camera rendered \(feed.frames) pictures in 10 s")
        #expect(feed.playingClientCount == 0)

        _ = gst_element_set_state(pipeline, GST_STATE_PLAYING)
        let appsink = UnsafeMutableRawPointer(sink).assumingMemoryBound(to: GstAppSink.self)
        let sample = try #require(gst_app_sink_try_pull_sample(appsink, 10 * second),
                                  "no picture within 10 s of PLAYING (\(feed.frames) rendered)")
        defer { gst_sample_unref(sample) }
        let buffer = try #require(gst_sample_get_buffer(sample))
        let stamp = buffer.pointee.pts
        // The pipeline's running time now: a picture stamped in the moment above is the clock's
        // absolute time instead, minutes or hours ahead of it.
        let pipelineClock = try #require(gst_element_get_clock(pipeline))
        defer { gst_object_unref(pipelineClock) }
        let now = gst_clock_get_time(pipelineClock) - gst_element_get_base_time(pipeline)
        // Not GST_CLOCK_TIME_NONE (all ones, a picture never stamped), and not ahead of the running time.
        #expect(stamp != GstClockTime.max && stamp <= now + second,
                "the first picture is stamped \(Double(stamp) / 1e9) s, the pipeline's running time is \(Double(now) / 1e9) s")
    }
}
