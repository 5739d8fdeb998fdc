import CoreMetrics
import Hummingbird
import Posts

/// Every request counted by route pattern and status (`smashtag_http_requests_total`), with how long the server took
/// to answer it (`smashtag_http_request_duration_seconds`: until its response is ready, which for every route but the
/// downloads and the live streams is when its body is whole); nothing at all with `--no-metrics`. It sits outside the
/// error pages, so a thrown error is counted with the status it was answered with.
///
/// Not Hummingbird's `MetricsMiddleware`: that one also keeps a gauge of requests in flight and wraps every body to
/// time its writing, which cost the Search page 7 % of its requests per second (PERFORMANCE.md, issue 50); this one
/// is one cached lookup and two updates per request.
struct RequestMetrics: RouterMiddleware {
    typealias Context = SiteContext
    private let handles: MetricHandles<(count: Counter, duration: Timer)>?

    init(isOn: Bool) {
        handles =
            isOn
            ? MetricHandles(labels: ["route", "method", "status"]) { labels in
                (
                    Counter(label: "smashtag_http_requests_total", dimensions: labels),
                    Timer(label: "smashtag_http_request_duration_seconds", dimensions: labels)
                )
            } : nil
    }

    func handle(
        _ request: Request, context: SiteContext, next: (Request, SiteContext) async throws -> Response
    ) async throws -> Response {
        guard let handles else { return try await next(request, context) }
        let started = ContinuousClock.now
        let response = try await next(request, context)
        let metrics = handles[context.endpointPath ?? "unknown", request.method.rawValue, String(response.status.code)]
        metrics.count.increment()
        metrics.duration.recordNanoseconds(Self.nanoseconds(ContinuousClock.now - started))
        return response
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}
