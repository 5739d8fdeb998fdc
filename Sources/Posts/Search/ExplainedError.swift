/// An error whose description is a sentence for the person searching (it names the source and says what to do);
/// any other error is internal and shown only as a general sentence.
public protocol ExplainedError: Error, CustomStringConvertible {}

/// An error as a log line may say it: its sentence when it is explained, else only its type (an internal error's own
/// description may carry an address or a query).
package enum ErrorSentence {
    package static func forLog(_ error: any Error) -> String {
        (error as? any ExplainedError)?.description ?? "\(type(of: error))"
    }
}

/// The request itself was wrong — a query no source can read, a position to page from that names no post —, so any
/// source would say the same: a 400 for the person who sent it, not a failure of the source.
public protocol MistakenRequest: ExplainedError {}

extension QueryError: MistakenRequest {}

/// This server's own database is away (a corpus or store in PostgreSQL): nothing can be answered until it is back,
/// so a page says so with a 503 and when to try again, unlike a network's failure, which a page reports beside the
/// other sources' results.
public protocol LocalOutage: ExplainedError {}

/// A network's refusal for its rate limit (a 429): counted apart from other failures, since what it asks is to wait.
public protocol RateLimitRefusal: Error {
    var isRateLimited: Bool { get }
}
