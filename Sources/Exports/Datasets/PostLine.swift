import AppStore
import Posts
import WireJSON

/// A post as a line of NDJSON: Smashtag's post JSON, as `/api/search` gives it (`Post`'s keys, sorted), with times
/// to the microsecond the network gave and `counted`, when it was first counted under the term. Written by hand into
/// one growing buffer: an export writes tens of thousands of lines a second.
enum PostLine {
    static func append(_ post: CountedPost, to json: inout JSONWriter) {
        json.writePublic(post.post, times: .microseconds(counted: post.counted))
        json.newLine()
    }
}
