import Twitter

/// The images of a page of results, each at its own aspect ratio, in columns whose width the person chooses.
struct ImagesPageView: Sendable {
    let chrome: Chrome
    let cells: [Cell]
    let isEmpty: Bool

    struct Cell: Sendable {
        let tweetID: String
        let imageURL: String
        let width: Int
        let height: Int
        /// The one-tweet list of the image's tweet.
        let tweetURL: String
    }

    init(query: String, tweets: [Tweet], tab: Tab, back: String?, here: String) {
        chrome = Chrome(title: "Images: " + query, tab: tab, back: back, isRoot: false)
        cells = tweets.flatMap { tweet in
            tweet.media.compactMap { item -> Cell? in
                guard let url = SafeURL.image(item.url) else { return nil }
                let box = ImageBox(aspectRatio: item.aspectRatio, width: 600)
                return Cell(tweetID: tweet.id, imageURL: url, width: box.width, height: box.height,
                            tweetURL: SiteURL.oneTweet(tab, query: query, id: tweet.id, back: here).path)
            }
        }
        isEmpty = cells.isEmpty
    }
}
