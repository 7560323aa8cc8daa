// Importing CLinphone here makes the test binary autolink liblinphone/mediastreamer/ortp/bctoolbox
// (the module map's `link` lines), which CFrameSink needs even while no IntercomCore code imports it.
import CLinphone
