import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How much a network says there is for a query before anyone collects it: posts (and, where it counts them,
/// accounts) per day, with who counted and what the numbers cover.
public struct QueryVolume: Sendable, Equatable {
    /// One day of the network's count, from midnight UTC.
    public struct Day: Sendable, Equatable {
        public let start: Date
        public let posts: Int
        /// The accounts that posted it that day, where the network counts them (Mastodon).
        public let accounts: Int?

        public init(start: Date, posts: Int, accounts: Int?) {
            (self.start, self.posts, self.accounts) = (start, posts, accounts)
        }

        /// The day as people read it: `2026-11-28` (UTC).
        public var date: String { String(WireDate.iso8601WholeSeconds(start).prefix(10)) }
    }

    /// What the numbers cover, in one sentence ("what mastodon.social saw: each server counts only what reaches
    /// it").
    public let limits: String
    /// Oldest first.
    public let days: [Day]

    public init(limits: String, days: [Day]) {
        self.limits = limits
        self.days = days.sorted { $0.start < $1.start }
    }

    public var posts: Int { days.reduce(0) { $0 + $1.posts } }
}

/// A source that can say how much there is for a query without collecting it.
public protocol VolumeSource: Sendable {
    /// The volume, or nil when this source cannot count this query (`volumeLimits` says what it can count).
    func volume(of query: String) async throws -> QueryVolume?

    /// What this source can count, for a query it cannot: one sentence.
    var volumeLimits: String { get }
}

/// A source made of several that each count on their own (a fleet of Mastodon servers: each counts what reached it),
/// asked and shown one by one.
public protocol VolumeParts: Sendable {
    var volumeParts: [NamedSource] { get }
}

/// What each of a set's sources says about a query's volume, asked at once: the counts, the sources that cannot count
/// this query (and what they can), and the failures, each named.
public struct VolumeReport: Sendable {
    /// One source's count.
    public struct Answer: Sendable {
        public let source: String
        public let title: String
        public let volume: QueryVolume
    }

    /// A source that counts other queries, or none.
    public struct Unable: Sendable {
        public let title: String
        public let why: String
    }

    public let answers: [Answer]
    public let unable: [Unable]
    public let failures: [SourceFailure]

    /// Every source of `sources` that can count, asked at once; the corpus and the others that cannot are left out
    /// unless `naming` them (said in `unable`).
    public static func ask(_ query: String, of set: SourceSet, naming: Bool) async -> VolumeReport {
        let sources = SourceSet(set.sources.flatMap { ($0.source as? any VolumeParts)?.volumeParts ?? [$0] })
        let outcomes = await withTaskGroup(of: (Int, Result<QueryVolume?, SourceFailure>?).self) { group in
            for (index, named) in sources.sources.enumerated() {
                group.addTask {
                    guard let counter = named.source as? any VolumeSource else { return (index, nil) }
                    do { return (index, .success(try await counter.volume(of: query))) } catch {
                        return (index, .failure(SourceFailure(source: named.name, title: named.title, error: error)))
                    }
                }
            }
            var outcomes = [Result<QueryVolume?, SourceFailure>?](repeating: nil, count: sources.sources.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes
        }
        var (answers, unable, failures) = ([Answer](), [Unable](), [SourceFailure]())
        for (named, outcome) in zip(sources.sources, outcomes) {
            switch outcome {
            case .success(let volume?)?:
                answers.append(Answer(source: named.name, title: named.title, volume: volume))
            case .success(nil)?:
                unable.append(Unable(title: named.title, why: (named.source as? any VolumeSource)?.volumeLimits ?? ""))
            case .failure(let failure)?: failures.append(failure)
            case nil where naming:
                unable.append(Unable(title: named.title, why: "it cannot count posts before collecting"))
            case nil: break
            }
        }
        return VolumeReport(answers: answers, unable: unable, failures: failures)
    }
}

extension VolumeReport {
    /// `{"term", "volumes": [{"source", "title", "limits", "posts", "days": [{"start", "posts", "accounts"}]}],
    /// "unable": [{"title", "why"}], "errors": [{"source", "message"}]}`: the CLI's `--format json` and the API's.
    public func json(term: String) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.member("term", term)
        json.beginArray("volumes")
        for answer in answers {
            json.beginObject()
            json.member("source", answer.source)
            json.member("title", answer.title)
            json.member("limits", answer.volume.limits)
            json.member("posts", answer.volume.posts)
            json.beginArray("days")
            for day in answer.volume.days {
                json.beginObject()
                json.member("start", WireDate.iso8601WholeSeconds(day.start))
                json.member("posts", day.posts)
                if let accounts = day.accounts { json.member("accounts", accounts) }
                json.endObject()
            }
            json.endArray()
            json.endObject()
        }
        json.endArray()
        json.beginArray("unable")
        for source in unable {
            json.beginObject()
            json.member("title", source.title)
            json.member("why", source.why)
            json.endObject()
        }
        json.endArray()
        json.sourceErrors(failures.map { ($0.source, $0.message) })
        json.endObject()
        return json.output.string
    }
}
