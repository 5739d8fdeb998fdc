import Foundation
import Posts
import TestSupport
import Testing

/// How every source's thread is shaped: ancestors root first, replies as a tree oldest first, a missing parent, a
/// cycle or a post answering itself as a row, and the page's limits counted, never dropped.
struct ThreadAssemblyTests {
    private func post(_ id: Int, replyingTo parent: Int? = nil, at seconds: Int? = nil) -> Post {
        TestPosts.post(
            id, "post \(id)", created: seconds.map { Date(timeIntervalSince1970: 1_700_000_000 + Double($0)) },
            replyingTo: parent)
    }

    private func assembled(_ posts: [Post]) -> ThreadAssembly {
        var assembly = ThreadAssembly()
        for post in posts { assembly.add(post) }
        return assembly
    }

    /// Each branch as `id(children…)`, a gap as `-id`.
    private func shape(_ branches: [ThreadBranch]) -> String {
        branches.map { branch in
            let head = branch.item.post.map(\.id) ?? "-" + branch.item.id
            let more = branch.moreReplies > 0 ? "+\(branch.moreReplies)" : ""
            return branch.replies.isEmpty ? head + more : "\(head)(\(shape(branch.replies)))\(more)"
        }.joined(separator: " ")
    }

    @Test func aThreadIsItsChainAboveAndItsRepliesBelowOldestFirst() {
        let posts = [
            post(1), post(2, replyingTo: 1), post(3, replyingTo: 2), post(5, replyingTo: 3, at: 50),
            post(4, replyingTo: 3, at: 60), post(6, replyingTo: 5), post(7, replyingTo: 1),
        ]
        let thread = assembled(posts).thread(of: posts[2], after: nil, limits: ThreadLimits(), source: "test")
        #expect(thread.ancestors.map(\.id) == ["1", "2"])
        #expect(shape(thread.replies) == "5(6) 4", "oldest first by time, not by id")
        #expect(thread.moreReplies == 0)
        #expect(thread.shownPosts.map(\.id) == ["1", "2", "3", "5", "6", "4"])
        #expect(!thread.shownPosts.contains { $0.id == "7" }, "a reply to an ancestor is another branch")
    }

    @Test func aParentTheSourceDidNotGiveIsARowSayingSo() {
        var assembly = assembled([post(3, replyingTo: 2), post(4, replyingTo: 3)])
        assembly.add(ThreadAssembly.Gap(id: "9", parent: "3", gap: .blocked))
        let thread = assembly.thread(of: post(3, replyingTo: 2), after: nil, limits: ThreadLimits(), source: "test")
        guard case .unavailable("2", .notFound)? = thread.ancestors.first else {
            Issue.record("expected the missing parent, got \(thread.ancestors)")
            return
        }
        #expect(thread.ancestors.count == 1, "the chain ends at the first missing post")
        #expect(shape(thread.replies) == "4 -9")
        #expect(ThreadGap.notFound.sentence == "A post that is no longer available.")
    }

    @Test func cyclesAndSelfRepliesEndWithARowAndShowNoPostTwice() {
        // 1 answers 3, 2 answers 1, 3 answers 2: hostile data. 4 answers itself.
        let cycle = [post(1, replyingTo: 3), post(2, replyingTo: 1), post(3, replyingTo: 2)]
        let thread = assembled(cycle).thread(of: cycle[2], after: nil, limits: ThreadLimits(), source: "test")
        #expect(thread.ancestors.map(\.id) == ["3", "1", "2"])
        guard case .unavailable(_, .cycle)? = thread.ancestors.first else {
            Issue.record("expected the loop said first, got \(thread.ancestors)")
            return
        }
        #expect(thread.replies.isEmpty, "its replies are its ancestors: shown once, above")
        let selfReply = post(4, replyingTo: 4)
        let alone = assembled([selfReply]).thread(of: selfReply, after: nil, limits: ThreadLimits(), source: "t")
        #expect(alone.replies.isEmpty)
        #expect(alone.ancestors.count == 1)
        #expect(Set(alone.shownPosts.map(\.id)) == ["4"])
    }

    @Test func aChainTenThousandDeepIsCutAtTheBoundAndSaysSo() {
        let chain = (1...10_000).map { post($0, replyingTo: $0 == 1 ? nil : $0 - 1) }
        let thread = assembled(chain).thread(of: chain.last!, after: nil, limits: ThreadLimits(), source: "test")
        #expect(thread.ancestors.count == 1_000)
        #expect(thread.ancestors.first?.id == "9000" && thread.ancestors.last?.id == "9999", "the nearest")
        #expect(thread.notes == ["The chain of posts above goes on: the 1,000 nearest are shown."])
        let top = assembled(chain).thread(of: chain[0], after: nil, limits: ThreadLimits(), source: "test")
        #expect(shape(top.replies) == "2(3(4(5+1)))", "four levels shown, the fifth counted")
        #expect(top.shownPosts.count == 5)
    }

    @Test func tenThousandRepliesArePagedFiftyAtATimeAndCounted() {
        let root = post(1)
        let replies = (2...10_001).map { post($0, replyingTo: 1) }
        let assembly = assembled([root] + replies)
        let first = assembly.thread(of: root, after: nil, limits: ThreadLimits(), source: "test")
        #expect(first.replies.count == 50)
        #expect(first.moreReplies == 9_950)
        let second = assembly.thread(of: root, after: first.replies.last!.item.id, limits: ThreadLimits(), source: "t")
        #expect(second.replies.first?.item.id == "52")
        #expect(second.moreReplies == 9_900)
        #expect(ThreadLimits.more(9_900) == "9,900 more replies" && ThreadLimits.more(1) == "1 more reply")
    }

    @Test func nestedLevelsShowTenAndCountTheRestWithWhatTheSourceSays() {
        let root = post(1)
        let child = post(2, replyingTo: 1)
        let grandchildren = (3...20).map { post($0, replyingTo: 2) }
        var assembly = assembled([root, child] + grandchildren)
        assembly.count(replies: 30, of: "2")
        let thread = assembly.thread(of: root, after: nil, limits: ThreadLimits(), source: "test")
        #expect(thread.replies.first?.replies.count == 10)
        #expect(thread.replies.first?.moreReplies == 20, "the source's count beats the replies it gave")
    }

    @Test func aThreadHidesWhatAVisitorMayNotSeeAsARow() {
        let hidden = Post(
            id: "3", created: Date(timeIntervalSince1970: 1_700_000_003), author: TestPosts.author("carol"),
            text: "for people signed in", inReplyToID: "1", signedInOnly: true)
        let thread = assembled([post(1), hidden]).thread(of: post(1), after: nil, limits: ThreadLimits(), source: "t")
        let shown = thread.shown(\.forVisitors)
        guard case .unavailable("3", .signedInOnly)? = shown?.replies.first?.item else {
            Issue.record("expected a row in the hidden reply's place")
            return
        }
        #expect(thread.shown { $0.id == "1" ? nil : $0 } == nil, "the post itself hidden: no thread")
    }

    @Test func addressesPeopleCopyNameTheirPost() {
        let uri = "at://did:plc:abc/app.bsky.feed.post/3k"
        let cases: [(String, PostKey?)] = [
            ("twitter:1850000000000000001", PostKey(network: .twitter, id: "1850000000000000001")),
            ("1850000000000000001", PostKey(network: .twitter, id: "1850000000000000001")),
            (
                "https://x.com/nasa/status/1850000000000000001?s=20",
                PostKey(network: .twitter, id: "1850000000000000001")
            ),
            (
                "https://bsky.app/profile/alice.bsky.social/post/3k7qmjev5lr2s",
                PostKey(network: .bluesky, id: "at://alice.bsky.social/app.bsky.feed.post/3k7qmjev5lr2s")
            ),
            ("at://did:plc:abc/app.bsky.feed.post/3k", PostKey(network: .bluesky, id: uri)),
            ("bluesky:at://did:plc:abc/app.bsky.feed.post/3k", PostKey(network: .bluesky, id: uri)),
            (
                "https://mastodon.social/@Gargron/113355112441234567",
                PostKey(network: .mastodon, id: "113355112441234567")
            ),
            ("https://example.social/users/alice/statuses/42", PostKey(network: .mastodon, id: "42")),
            ("mastodon:42", PostKey(network: .mastodon, id: "42")),
            ("https://example.com/about", nil), ("gopher:42", nil), ("", nil), ("twitter:", nil),
        ]
        for (text, key) in cases { #expect(PostAddress.key(text) == key, "\(text)") }
    }
}
