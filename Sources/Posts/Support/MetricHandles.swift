import Synchronization

/// swift-metrics handles made once per set of label values and kept: making one asks the metrics backend (a lock, a
/// lookup, the labels renamed), which a request should not pay each time it counts. Handles are made on first use, so
/// a process installs its backend (`ProcessMetrics.start()`) before anything records.
package final class MetricHandles<Handle: Sendable>: Sendable {
    private let labels: [String]
    private let make: @Sendable (_ dimensions: [(String, String)]) -> Handle
    private let handles = Mutex<[[String]: Handle]>([:])

    /// `labels`: the label names, in the order `subscript` takes their values.
    package init(labels: [String], _ make: @escaping @Sendable (_ dimensions: [(String, String)]) -> Handle) {
        (self.labels, self.make) = (labels, make)
    }

    package subscript(_ values: String...) -> Handle {
        handles.withLock { handles in
            if let handle = handles[values] { return handle }
            let handle = make(Array(zip(labels, values)))
            handles[values] = handle
            return handle
        }
    }
}
