import AppStore
import ArgumentParser
import Posts
import SmashtagApp

/// `smashtag search QUERY`: a page of posts, newest first, continuing the term's session with --newer/--older.
struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            """
            Search posts: words, \"phrases\", #hashtags, @users, from:user, OR, -exclusions, ( ), \
            filter:media/links/retweets/replies.
            """,
        discussion:
            """
            --newer fetches only posts newer than the newest this search has shown; --older pages back from the \
            oldest.
            """
    )

    // Everything the options do not claim is the query, so one that starts with "-" ('-filter:retweets #swift')
    // is read as a query and not refused as an unknown option; unquoted words are joined with spaces.
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp(
            "What to search for, e.g. '#swift', 'from:nasa', 'swift OR rust', '-is:retweet #swift'.", valueName: "query"
        ))
    var words: [String] = []

    /// The words before a `--` terminator, which may hold mistyped options, and the words after it, which may not.
    private var parts: (beforeTerminator: ArraySlice<String>, afterTerminator: ArraySlice<String>) {
        guard let terminator = words.firstIndex(of: "--") else { return (words[...], []) }
        return (words[..<terminator], words[(terminator + 1)...])
    }

    var query: String { (parts.beforeTerminator + parts.afterTerminator).joined(separator: " ") }

    @Option(help: "How many posts (1–100).")
    var count = 20

    @Flag(help: "Only posts newer than the newest already shown for this query.")
    var newer = false

    @Flag(help: "The page of posts before the oldest already shown for this query.")
    var older = false

    @Option(help: "text (coloured on a terminal) or json.")
    var format: OutputFormat = .text

    @OptionGroup var common: CommonOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard !query.allSatisfy(\.isWhitespace) else {
            throw ValidationError("Give a query to search for, e.g. smashtag search '#swift'.")
        }
        // A query never starts with "--": that is a mistyped option, and saying so beats searching for it.
        if let option = parts.beforeTerminator.first(where: { $0.hasPrefix("--") }) {
            throw ValidationError("Unknown option “\(option.excerpt())”.")
        }
        guard (1...SearchRequest.maximumCount).contains(count) else {
            throw ValidationError("--count must be between 1 and 100.")
        }
        guard !(newer && older) else { throw ValidationError("Use --newer or --older, not both.") }
    }

    func run() async throws {
        let directory = try DataDirectory(common.dataDirectory)
        let choice = try SourceChoice(common, directory: directory)
        // A typo in the query is reported before anything else happens (like generating the demo corpus).
        if choice.names.contains(.corpus) { _ = try await CommandFailure.reporting { try SearchQuery(parsing: query) } }
        let sources = try await choice.open(in: directory, at: try store.location())
        let page = try await store.withStore(in: directory) { database in
            try await CommandFailure.reporting { () async throws -> MergedPage? in
                let sessions = SearchSessions(database: database)
                guard let position = try await position(in: sessions, sources) else { return nil }
                return try await sessions.fetch(query, from: sources, at: position, count: count)
            }
        }
        for failure in page?.failures ?? [] { StandardError.write("smashtag: \(failure.message)") }
        for problem in page?.problems ?? [] { StandardError.write("smashtag: note: \(problem)") }
        output(page?.posts ?? [])
        if page == nil, format == .text { StandardError.write("smashtag: no older posts for “\(query)”.") }
    }

    /// Where the term's session stands in each source; nil when --older has reached every source's oldest post.
    private func position(in sessions: SearchSessions, _ sources: SourceSet) async throws -> MergedPosition? {
        if newer { return try await sessions.newerPosition(for: query, from: sources) }
        if older { return try await sessions.olderPosition(for: query, from: sources) }
        return .newest
    }

    private func output(_ posts: [Post]) {
        switch format {
        case .json:
            print(SearchDocument(query: query, posts: posts).json())
        case .text:
            var printer = PostPrinter(format: .text, style: .standardOutput)
            for post in posts { printer.print(post) }
            if posts.isEmpty, !older {
                StandardError.write("smashtag: no\(newer ? " newer" : "") posts for “\(query)”.")
            }
        }
    }
}
