import Posts
import Twitter

/// The images of a page of results, each at its own aspect ratio, in columns whose width the person chooses.
struct ImagesPageView: Sendable {
    let chrome: Chrome
    let cells: [Cell]
    let isEmpty: Bool

    struct Cell: Sendable {
        let tweetID: String
        let imageURL: String
        let box: ImageBox
        /// Blurred: the author marked it sensitive (tapping opens the post, where it can be shown).
        let isSensitive: Bool
        /// The one-tweet list of the image's tweet.
        let tweetURL: String
    }

    init(query: String, tweets: [Post], tab: Tab, back: String?, here: String) {
        chrome = Chrome(title: "Images: " + query, tab: tab, back: back, isRoot: false)
        cells = tweets.flatMap { tweet in
            tweet.media.compactMap { item -> Cell? in
                guard let url = SafeURL.image(item.url) else { return nil }
                return Cell(tweetID: tweet.key.description, imageURL: url, box: ImageBox(aspectRatio: item.aspectRatio, width: 600),
                            isSensitive: tweet.isSensitive, tweetURL: SiteURL.onePost(tab, query: query, key: tweet.key, back: here).path)
            }
        }
        isEmpty = cells.isEmpty
    }
}

extension ImagesPageView: PageView {
    func writeBody(to html: inout HTMLWriter) {
        html.append("""
            <label class="cell-size">Size <input type="range" min="6" max="24" step="1" value="11" aria-label="Image size"></label>

            """)
        if isEmpty { html.append("<p class=\"empty\">These tweets have no images.</p>\n") }
        html.append("<div class=\"grid\">\n")
        for cell in cells {
            let classAndLabel: Markup = cell.isSensitive ? #"class="cell sensitive" aria-label="Sensitive media""# : #"class="cell""#
            html.append("""
                <a \(classAndLabel) href="\(url: cell.tweetURL)" data-tweet-id="\(cell.tweetID)"><img src="\(url: cell.imageURL)" alt=""\
                \(cell.box.attributes) loading="lazy"></a>
                """)
        }
        html.append("\n</div>\n")
    }
}
