import Posts

/// "1 post", "3 posts".
enum Plural {
    static func posts(_ count: Int) -> String { count == 1 ? "1 post" : "\(grouped(count)) posts" }
}
