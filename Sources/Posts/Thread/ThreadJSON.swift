import WireJSON

/// A thread as JSON, one shape for `/api/threads/…` and `smashtag thread --format json`: `post`, `ancestors` (the
/// root first) and `replies` (oldest first, each with its own `replies`), every place an object with either `post`
/// or `id` and `unavailable` (its sentence), and `moreReplies` where replies are not included; `notes` and `source`
/// say what the thread leaves out and where it came from.
extension PostThread {
    /// `next`: the address of the next page of direct replies, when there is one.
    package func json(next: String?) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.beginArray("ancestors")
        for item in ancestors { json.write(item) }
        json.endArray()
        json.member("moreReplies", moreReplies)
        if let next { json.member("next", next) }
        json.beginArray("notes")
        for note in notes { json.element(note) }
        json.endArray()
        json.writePublic(post, times: .wholeSeconds, key: "post")
        json.write(replies)
        json.member("source", source)
        json.endObject()
        return json.output.string
    }
}

extension JSONWriter {
    fileprivate mutating func write(_ item: ThreadItem, branch: ThreadBranch? = nil) {
        beginObject()
        switch item {
        case .post(let post):
            if let branch { member("moreReplies", branch.moreReplies) }
            writePublic(post, times: .wholeSeconds, key: "post")
        case .unavailable(let id, let gap):
            member("id", id)
            member("unavailable", gap.sentence)
        }
        if let branch { write(branch.replies) }
        endObject()
    }

    fileprivate mutating func write(_ branches: [ThreadBranch]) {
        beginArray("replies")
        for branch in branches { write(branch.item, branch: branch) }
        endArray()
    }
}
