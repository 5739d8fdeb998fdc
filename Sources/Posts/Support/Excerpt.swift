extension String {
    /// At most `limit` characters, with `…` when cut: values quoted in messages stay readable however long.
    package func excerpt(_ limit: Int = 40) -> String {
        count <= limit ? self : prefix(limit) + "…"
    }
}
