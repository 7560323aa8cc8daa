// The terminal layer's Swift API (window size, raw mode, the writer) is part of the TUI's.
@_exported import IntercomTerminal
