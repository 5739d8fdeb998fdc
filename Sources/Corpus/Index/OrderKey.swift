import Posts

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The order key of a post that has no X id: made as X makes its ids — milliseconds since X's epoch above 22 bits —
/// so posts of every network interleave by time in one index; the low bits are a hash of the post's own id, and the
/// writer takes the next free key on the rare collision.
enum OrderKey {
    static let epoch: Int64 = 1_288_834_974_657

    static func of(_ post: Post) -> Int64 {
        first(at: post.created) | Int64(StableHash.of(post.id) & 0x3F_FFFF)
    }

    /// The least key after `key`, which a request names (a page's last reply): the largest key has none after it, and
    /// `+ 1` would stop the process.
    static func after(_ key: Int64) -> Int64 {
        key < .max ? key + 1 : .max
    }

    /// The least key of a post made at `date` (of any network: X's ids are made the same way).
    static func first(at date: Date) -> Int64 {
        min(max(0, date.millisecondsSince1970 - epoch), Int64(1) << 40) << 22
    }
}
