extension Duration {
    /// Whole nanoseconds, for clients whose deadlines take them (AsyncHTTPClient's `NIODeadline`).
    package var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
