// The parts split out of the engine (once one IntercomCore module) are re-exported so the front ends, the bench, the fuzzer and
// the tests still see one module while they are moved to import the part they need (issue 11).
@_exported import IntercomHTTP
@_exported import IntercomImaging
@_exported import IntercomPhone
@_exported import IntercomPanel
