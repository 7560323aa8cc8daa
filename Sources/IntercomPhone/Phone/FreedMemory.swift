#if canImport(Glibc)
import Glibc
#endif

/// Hands memory that calls freed back to the kernel. A call allocates and frees a few megabytes
/// on several threads (liblinphone's, mediastreamer's tickers, Swift's pool), and glibc keeps
/// what was freed inside its per-thread arenas, scattered between live blocks: a concierge
/// desk's daemon grew ~6 KB of private memory per call that way with little live behind it
/// (BENCHMARKS.md, the soak). `malloc_trim` returns the free pages of every arena.
enum FreedMemory {
    private typealias Trim = @convention(c) (Int) -> Int32
    private typealias Option = @convention(c) (Int32, Int32) -> Int32

    /// glibc's `malloc_trim` and `mallopt`, declared in malloc.h, which Swift's Glibc module does
    /// not import; nil on another libc.
    private static let trim: Trim? = dlsym(nil, "malloc_trim").map { unsafeBitCast($0, to: Trim.self) }
    private static let option: Option? = dlsym(nil, "mallopt").map { unsafeBitCast($0, to: Option.self) }
    /// glibc's M_ARENA_MAX.
    private static let arenaMaximum: Int32 = -8

    /// At most two arenas: every thread a call starts (mediastreamer's tickers, decoders) otherwise
    /// may get an arena of its own, each keeping its own free pages. The phone's work is one
    /// thread at a time; two leave room for the TUI or HTTP beside it. Before the first core.
    static func limitArenas() {
        _ = option?(arenaMaximum, 2)
    }

    static func giveBack() {
        _ = trim?(0)
    }
}
