/// A term's counted posts as the store reads them for a dataset, a batch at a time.
protocol DatasetStore: Sendable {
    /// A batch of the posts counted under the term in the read's window, after the store's reference `after`, in
    /// the order of the references; nil when the term is not in Recents.
    func countedPosts(_ read: CountedPostRead, after reference: Int64) async throws -> CountedPostBatch?
}
