extension Array {
    /// The elements in consecutive slices of at most `size` (at least one each).
    package func chunks(of size: Int) -> [[Element]] {
        let size = Swift.max(1, size)
        return stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
