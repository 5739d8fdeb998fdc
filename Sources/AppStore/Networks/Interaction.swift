import Posts

/// What one post does to another person, for the conversation networks: a reply answers its parent's author, a quote
/// the quoted post's author, a repost the reposted post's author — from the post's author (the reposter) to them.
/// A post acts once: a repost is the reposter's only act (the reply or quote inside it is its author's, counted
/// where that post is). Nothing for a withheld post, which keeps no author; nothing toward oneself (a thread of
/// one's own is not a conversation). Who was acted on may be unknown (a Bluesky parent's author is a DID, a
/// Mastodon server may not list them): the post replied to or quoted is still counted, the edge is not.
struct Interaction: Sendable, Hashable {
    /// A person as a network's node: their `mention` row, `@` and the handle, as a post naming them would.
    struct Person: Sendable, Hashable {
        let key: String
        let shown: String

        /// Nil for a handle no one can be followed to: none, the placeholder of an author a source left out, or a
        /// bare DID.
        init?(_ handle: String?) {
            guard let handle, !handle.isEmpty, handle != Author.unknown.handle, !handle.hasPrefix("did:") else {
                return nil
            }
            shown = "@" + handle
            key = shown.lowercased()
        }
    }

    let kind: InteractionKind
    let source: Person
    let target: Person?
    /// The post replied to or quoted (none for a repost: the post counted is the repost itself).
    let post: PostKey?

    init?(_ post: Post) {
        guard !post.isWithheld else { return nil }
        if let reposter = post.repostedBy {
            guard let source = Person(reposter.handle), let target = Person(post.author.handle),
                source.key != target.key
            else { return nil }
            self.init(kind: .repost, source: source, target: target, post: nil)
        } else if let parent = post.inReplyToID {
            self.init(kind: .reply, from: post, to: post.inReplyToUser, on: PostKey(network: post.network, id: parent))
        } else if let quoted = post.quotedID {
            self.init(
                kind: .quote, from: post, to: post.quoted?.author.handle,
                on: PostKey(network: post.network, id: quoted))
        } else {
            return nil
        }
    }

    private init?(kind: InteractionKind, from post: Post, to handle: String?, on target: PostKey) {
        guard let source = Person(post.author.handle) else { return nil }
        let person = Person(handle)
        guard person?.key != source.key else { return nil }
        self.init(kind: kind, source: source, target: person, post: target)
    }

    private init(kind: InteractionKind, source: Person, target: Person?, post: PostKey?) {
        (self.kind, self.source, self.target, self.post) = (kind, source, target, post)
    }
}
