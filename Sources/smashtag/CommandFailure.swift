import Corpus
import Posts
import Twitter

/// A failure the user should read: printed as `smashtag: <sentence>` with a non-zero exit.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

extension CommandFailure {
    /// Runs `body`, turning the errors a person can act on (a malformed query, a bad paging id) into their sentence.
    static func reporting<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as QueryError {
            throw CommandFailure(error.description)
        } catch let error as CorpusError {
            throw CommandFailure(error.description)
        } catch let error as XAPIError {
            throw CommandFailure(error.description)
        }
    }
}
