import Logging
import NIOCore
import PostgresNIO
import PostgresSupport
import Posts

/// Writes posts inside one transaction of the PostgreSQL corpus: a batch at a time, in a fixed number of round trips
/// whatever its size — the new posts found, their people upserted, their terms named, then the posts and their
/// postings streamed with `COPY`. Another writer storing the same post at the same moment makes `COPY` fail on the
/// key; the transaction then runs again (`PostgresPool.transaction`) and finds the post stored.
struct PostgresPostWriter {
    let connection: PostgresConnection
    var terms: TermIDs.Session

    /// What happened to each post of `posts`, in order.
    mutating func insert(_ posts: [Post]) async throws -> [PostWriter.Outcome] {
        var outcomes = [PostWriter.Outcome](repeating: .duplicate, count: posts.count)
        let fresh = try await newPosts(posts, outcomes: &outcomes)
        guard !fresh.isEmpty else { return outcomes }
        let people = try await authors(of: fresh.map { posts[$0.index] })
        var rows: [PostRow] = []
        for candidate in fresh {
            let post = posts[candidate.index]
            let author = people[post.author.handle.lowercased()]
            let reposter = post.repostedBy.flatMap { people[$0.handle.lowercased()] }
            guard let author else { continue }
            let entry = IndexEntry(post, alsoFrom: (reposter ?? author).resolvedHandle)
            rows.append(
                PostRow(key: candidate.key, post: post, author: author.id, reposter: reposter?.id, entry: entry))
            outcomes[candidate.index] = .inserted
        }
        try await askForSignIn(rows.filter(\.post.signedInOnly).map(\.author))
        try await terms.name(Set(rows.flatMap(\.termKeys)), on: connection)
        try await copy(rows)
        return outcomes
    }

    /// A post to store and the key it takes.
    private struct Candidate {
        let index: Int
        var key: Int64
    }

    /// The posts not stored yet (and not repeated earlier in the batch), each with a free order key; an X post whose
    /// id cannot be a key is `.badID`.
    private func newPosts(_ posts: [Post], outcomes: inout [PostWriter.Outcome]) async throws -> [Candidate] {
        var seen = Set<PostKey>()
        var candidates: [Candidate] = []
        for (index, post) in posts.enumerated() where seen.insert(post.key).inserted {
            if post.network == .twitter {
                guard TweetID.isValid(post.id), let key = Int64(post.id) else {
                    outcomes[index] = .badID
                    continue
                }
                candidates.append(Candidate(index: index, key: key))
            } else {
                candidates.append(Candidate(index: index, key: OrderKey.of(post)))
            }
        }
        let stored = try await storedIDs(of: candidates.map { posts[$0.index] })
        candidates.removeAll { stored.contains(posts[$0.index].key) }
        return try await withFreeKeys(candidates, posts)
    }

    /// Which of `posts` another network's id already names in the corpus.
    private func storedIDs(of posts: [Post]) async throws -> Set<PostKey> {
        let others = posts.filter { $0.network != .twitter }
        guard !others.isEmpty else { return [] }
        let rows = try await connection.rows(
            "SELECT network, post_id FROM corpus_post WHERE post_id = ANY(\(others.map(\.id))) AND network <> 0")
        return Set(
            try rows.compactMap { row in
                try Network(code: Int(row["network"].decode(Int16.self))).map {
                    PostKey(network: $0, id: try row["post_id"].decode(String.self))
                }
            })
    }

    /// X posts whose key is taken are stored already; another network's post takes the next free key instead.
    private func withFreeKeys(_ candidates: [Candidate], _ posts: [Post]) async throws -> [Candidate] {
        var result = candidates
        var pending = Array(result.indices)
        while !pending.isEmpty {
            let taken = Set(
                try await connection.rows(
                    "SELECT key FROM corpus_post WHERE key = ANY(\(pending.map { result[$0].key }))"
                ).map { try $0["key"].decode(Int64.self) })
            let waiting = Set(pending)
            var claimed = Set(result.indices.filter { !waiting.contains($0) }.map { result[$0].key })
            var next: [Int] = []
            for index in pending {
                let isX = posts[result[index].index].network == .twitter
                if taken.contains(result[index].key) || claimed.contains(result[index].key) {
                    if isX {
                        result[index].key = -1
                    } else {
                        result[index].key += 1
                        next.append(index)
                    }
                } else {
                    claimed.insert(result[index].key)
                }
            }
            pending = next
        }
        return result.filter { $0.key >= 0 }
    }

    /// The stored people of `posts`, by lower-cased handle: the newest name and picture win, except that an author
    /// known only by DID never overwrites what resolving found. Read first and written only where new or changed: a
    /// row written (or upserted, which locks it even unchanged) would hold every other batch by the same people until
    /// this one commits.
    private func authors(of posts: [Post]) async throws -> [String: StoredAuthor] {
        var people: [String: Author] = [:]
        for post in posts {
            for person in [post.author] + (post.repostedBy.map { [$0] } ?? []) {
                people[person.handle.lowercased()] = people[person.handle.lowercased()] ?? person
            }
        }
        var stored: [String: StoredAuthor] = [:]
        var changed: [Author] = []
        for row in try await connection.rows(
            """
            SELECT id, lower(handle) AS key, resolved_handle, name, picture FROM corpus_author
            WHERE lower(handle) = ANY(\(Array(people.keys)))
            """)
        {
            let key = try row["key"].decode(String.self)
            stored[key] = try StoredAuthor(row)
            guard let person = people[key], !person.isUnresolved else { continue }
            let picture = try row["picture"].decode(String?.self)
            if try person.name != row["name"].decode(String.self)
                || (person.profileImageURL != nil && person.profileImageURL != picture)
            {
                changed.append(person)
            }
        }
        try await update(changed.sorted { $0.handle.lowercased() < $1.handle.lowercased() })
        let new = people.filter { stored[$0.key] == nil }.sorted { $0.key < $1.key }.map(\.value)
        guard !new.isEmpty else { return stored }
        for row in try await connection.rows(
            """
            INSERT INTO corpus_author (handle, name, picture, pending)
            SELECT handle, name, nullif(picture, ''), pending FROM unnest(\(new.map(\.handle))::text[],
                \(new.map(\.name))::text[], \(new.map { $0.profileImageURL ?? "" })::text[],
                \(new.map(\.isUnresolved))::boolean[]) AS people (handle, name, picture, pending)
            ON CONFLICT DO NOTHING
            RETURNING id, lower(handle) AS key, resolved_handle
            """)
        {
            stored[try row["key"].decode(String.self)] = try StoredAuthor(row)
        }
        // Another writer made the rest meanwhile: its rows are committed now.
        let racing = new.map { $0.handle.lowercased() }.filter { stored[$0] == nil }
        guard !racing.isEmpty else { return stored }
        for row in try await connection.rows(
            "SELECT id, lower(handle) AS key, resolved_handle FROM corpus_author WHERE lower(handle) = ANY(\(racing))")
        {
            stored[try row["key"].decode(String.self)] = try StoredAuthor(row)
        }
        return stored
    }

    /// Posts say their authors show their posts only to people signed in: so does every post of theirs the corpus
    /// holds. Only a resolved profile takes it back (`store(_:)`): a post without labels (the live index's) says
    /// nothing either way.
    private func askForSignIn(_ authors: [Int64]) async throws {
        guard !authors.isEmpty else { return }
        try await connection.run(
            """
            UPDATE corpus_author SET signed_in_only = true
            WHERE id = ANY(\(Array(Set(authors)).sorted())) AND signed_in_only IS NOT TRUE
            """)
    }

    /// New names and pictures of people already stored.
    private func update(_ people: [Author]) async throws {
        guard !people.isEmpty else { return }
        try await connection.run(
            """
            UPDATE corpus_author a SET name = v.name, picture = coalesce(nullif(v.picture, ''), a.picture)
            FROM unnest(\(people.map { $0.handle.lowercased() })::text[], \(people.map(\.name))::text[],
                \(people.map { $0.profileImageURL ?? "" })::text[]) AS v (key, name, picture)
            WHERE lower(a.handle) = v.key
            """)
    }

    /// The rows and their postings, each table in one `COPY`.
    private func copy(_ rows: [PostRow]) async throws {
        var posts = ByteBuffer()
        for row in rows { row.write(to: &posts) }
        try await connection.copyFrom(
            table: "corpus_post", columns: ["key", "network", "post_id", "author_id", "reposter_id", "json", "words"],
            logger: .queries
        ) { writer in try await writer.write(posts) }
        var postings: [(term: Int32, post: Int64)] = []
        for row in rows {
            for key in row.termKeys { if let term = terms[key] { postings.append((term, row.key)) } }
        }
        postings.sort { ($0.term, $0.post) < ($1.term, $1.post) }
        var lines = ByteBuffer()
        for posting in postings { lines.writeString("\(posting.term)\t\(posting.post)\n") }
        try await connection.copyFrom(table: "corpus_posting", columns: ["term_id", "post_key"], logger: .queries) {
            writer in try await writer.write(lines)
        }
    }
}

extension IndexEntry {
    /// Every posting list of PostgreSQL's index the post is in: its operator terms and its distinct words.
    var postingKeys: Set<String> {
        terms.union(words)
    }
}

/// A stored author: its row, and the handle a DID-named author resolved to.
struct StoredAuthor {
    let id: Int64
    let resolvedHandle: String?

    init(_ row: PostgresRandomAccessRow) throws {
        id = try row["id"].decode(Int64.self)
        resolvedHandle = try row["resolved_handle"].decode(String?.self)
    }
}

/// One post as `COPY` writes it, with the terms it is found by.
private struct PostRow {
    let key: Int64
    let post: Post
    let author: Int64
    let reposter: Int64?
    let entry: IndexEntry
    /// Every posting list the post is in.
    let termKeys: Set<String>

    init(key: Int64, post: Post, author: Int64, reposter: Int64?, entry: IndexEntry) {
        (self.key, self.post, self.author, self.reposter, self.entry) = (key, post, author, reposter, entry)
        termKeys = entry.postingKeys
    }

    func write(to buffer: inout ByteBuffer) {
        let isX = post.network == .twitter
        buffer.writeString("\(key)\t\(post.network.code)\t")
        CopyText.write(isX ? nil : post.id, to: &buffer)
        buffer.writeString("\t\(author)\t")
        CopyText.write(reposter.map(String.init), to: &buffer)
        buffer.writeString("\t")
        CopyText.write(post.storedJSON, to: &buffer)
        buffer.writeString("\t")
        CopyText.write(entry.words.joined(separator: " "), to: &buffer)
        buffer.writeString("\n")
    }
}

/// A value in `COPY`'s text format: backslash, tab, newline and carriage return escaped; `\N` for null.
enum CopyText {
    static func write(_ text: String?, to buffer: inout ByteBuffer) {
        guard let text else {
            buffer.writeString("\\N")
            return
        }
        var utf8 = text.utf8
        if !utf8.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            buffer.writeString(text)
            return
        }
        utf8 = text.utf8
        for byte in utf8 {
            switch byte {
            case 0x5C: buffer.writeStaticString("\\\\")
            case 0x09: buffer.writeStaticString("\\t")
            case 0x0A: buffer.writeStaticString("\\n")
            case 0x0D: buffer.writeStaticString("\\r")
            default: buffer.writeInteger(byte)
            }
        }
    }
}
