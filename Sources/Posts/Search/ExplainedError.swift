/// An error whose description is a sentence for the person searching (it names the source and says what to do);
/// any other error is internal and shown only as a general sentence.
public protocol ExplainedError: Error, CustomStringConvertible {}

extension QueryError: ExplainedError {}

/// This server's own database is away (a corpus or store in PostgreSQL): nothing can be answered until it is back,
/// so a page says so with a 503 and when to try again, unlike a network's failure, which a page reports beside the
/// other sources' results.
public protocol LocalOutage: ExplainedError {}
