import Foundation
import Posts
import Testing
import Twitter

/// Whom a tweet answers: v1.1's `in_reply_to_screen_name`, v2's `in_reply_to_user_id` among the page's users, else
/// the reply's first leading `@name` (which X shows above the text).
struct RepliedToTests {
    private func posts(in file: String) throws -> [Post] {
        try TweetFileReader(path: OwnFixtures.path(file)).compactMap { event -> Post? in
            if case .post(let post) = event { post } else { nil }
        }
    }

    @Test func eachFormatNamesWhomAReplyAnswers() throws {
        let v1 = try posts(in: "v1-status-extended.json")
        #expect(v1.first?.inReplyToUser == "maria_dev")
        let v2 = try posts(in: "v2-search.json")
        #expect(v2.first { $0.id == "1763534653748178952" }?.inReplyToUser == "lena_photo")
        #expect(v2.filter { $0.inReplyToID == nil }.allSatisfy { $0.inReplyToUser == nil }, "only a reply answers")
    }

    @Test func aReplysFirstLeadingNameIsWhomItAnswersWhenTheDataDoesNotSay() throws {
        let json = """
            {"data":[{"id":"1900000000000000010","text":"@ana @bo thanks!","author_id":"1",\
            "created_at":"2026-11-20T10:00:00.000Z","referenced_tweets":[{"type":"replied_to",\
            "id":"1900000000000000009"}],"entities":{"mentions":[{"start":0,"end":4,"username":"ana"},\
            {"start":5,"end":8,"username":"bo"}]}}],"includes":{"users":[{"id":"1","username":"cy","name":"Cy"}]}}
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reply-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try json.write(toFile: file, atomically: true, encoding: .utf8)
        let post = try #require(
            try TweetFileReader(path: file).compactMap { event -> Post? in
                if case .post(let post) = event { post } else { nil }
            }.first)
        #expect(post.inReplyToUser == "ana")
        #expect(post.replyingTo?.names == ["@ana", "@bo"])
    }
}
