import Testing

/// The suites that play streams, one test at a time: they count `intercom.video` threads in this
/// process, and each test server costs a good part of a core. (`.serialized` covers nested suites.)
@Suite(.serialized)
enum LiveVideoTests {}
