import Posts

/// A failure the user should read: printed as `smashtag: <sentence>` with a non-zero exit.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }

    /// An explained error's sentences, one line each.
    init(explaining error: any ExplainedError) {
        description = error.description.split(separator: "\n").joined(separator: "\nsmashtag: ")
    }
}

extension CommandFailure {
    /// Runs `body`, turning the errors a person can act on (a malformed query, a bad paging id, every source
    /// failing) into their sentences, one line each.
    static func reporting<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as any ExplainedError {
            throw CommandFailure(explaining: error)
        }
    }
}
