#if canImport(Glibc)
    import Glibc
#endif

/// glibc's malloc arenas, for the commands that decode a file on several threads (`import`, `inspect`).
enum MallocArenas {
    /// Each decoding thread takes an arena of its own, and what one thread allocates another frees (the posts, their
    /// written lines): glibc keeps every arena's freed memory and hands each arena fresh pages. An import of 1,000,000
    /// posts went from 63 to 113 MB resident, and `inspect` spent a sixth of its CPU in page faults; two arenas keep
    /// the import at 83 MB and halve the faults. `mallopt` is glibc's and not in Swift's Glibc module: looked up by
    /// name.
    static func limitToTwo() {
        #if canImport(Glibc)
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            let arenaMaximum: Int32 = -8  // M_ARENA_MAX in <malloc.h>
            guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "mallopt") else { return }
            _ = unsafeBitCast(symbol, to: Mallopt.self)(arenaMaximum, 2)
        #endif
    }
}
