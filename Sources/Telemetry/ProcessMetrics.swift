import CoreMetrics
import Prometheus
import Synchronization

/// The process's metrics, kept in one Prometheus registry that `/metrics` writes out. Every module records through
/// swift-metrics (`Counter`, `Timer`, `Meter`); they reach this registry once `start()` has installed it as the
/// process's metrics system, and cost nothing before (swift-metrics' no-op backend): `serve --no-metrics` never
/// starts it.
public enum ProcessMetrics {
    /// The registry, installed as the metrics system on first use: swift-metrics takes one backend per process.
    public static func start() -> PrometheusCollectorRegistry {
        installed
    }

    private static let installed: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = latencyBuckets
        MetricsSystem.bootstrap(factory)
        return registry
    }()

    /// A page takes milliseconds; a search of the networks, seconds: buckets from 1 ms to 10 s.
    private static let latencyBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
        .milliseconds(2500), .seconds(5), .seconds(10),
    ]
}

/// Gauges whose series are read off the app's state when `/metrics` is asked (a tracked term's lateness, a source's
/// budget): each scrape sets the series that exist now and removes those that went (an untracked term's), so no
/// series outlives what it measures.
public final class ScrapedGauges: Sendable {
    private let registry: PrometheusCollectorRegistry
    private let name: String
    private let help: String
    private let current = Mutex<[[String]: Prometheus.Gauge]>([:])

    public init(_ registry: PrometheusCollectorRegistry, name: String, help: String) {
        (self.registry, self.name, self.help) = (registry, name, help)
    }

    /// Sets every series to its value (labels as name-value pairs, the same names for every series).
    public func set(_ values: [(labels: [(String, String)], value: Double)]) {
        current.withLock { gauges in
            var kept: [[String]: Prometheus.Gauge] = [:]
            for (labels, value) in values {
                let key = labels.flatMap { [$0.0, $0.1] }
                let gauge = gauges[key] ?? registry.makeGauge(name: name, labels: labels, help: help)
                gauge.set(value)
                kept[key] = gauge
            }
            for (key, gauge) in gauges where kept[key] == nil { registry.unregisterGauge(gauge) }
            gauges = kept
        }
    }
}
