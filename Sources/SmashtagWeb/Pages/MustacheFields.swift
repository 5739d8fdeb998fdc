import Mustache

// Templates look fields up by name. Without these, swift-mustache finds each one through `Mirror`, which was
// nine tenths of a Search page's time (docs/PERFORMANCE.md); a switch per view-model is a table look-up.

extension TweetRow: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "avatarURL": avatarURL
        case "initial": initial
        case "name": self.name
        case "screenName": screenName
        case "date": date
        case "isoDate": isoDate
        case "retweetedBy": retweetedBy
        case "segments": segments
        case "imageCount": imageCount
        case "detailURL": detailURL
        default: nil
        }
    }
}

extension SegmentView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "text": text
        case "mention": mention
        default: nil
        }
    }
}

extension MentionView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "text": text
        case "kind": kind
        default: nil
        }
    }
}

extension Chrome: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "backURL": backURL
        case "rootURL": rootURL
        case "isSearchTab": isSearchTab
        case "isRecentsTab": isRecentsTab
        case "searchTabURL": searchTabURL
        case "recentsTabURL": recentsTabURL
        case "stylesheetURL": stylesheetURL
        case "scriptURL": scriptURL
        default: nil
        }
    }
}

extension SearchPageView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "query": query
        case "formAction": formAction
        case "tab": tab
        case "back": back
        case "tweets": tweets
        case "isEmpty": isEmpty
        case "newerURL": newerURL
        case "olderURL": olderURL
        case "error": error
        case "retryURL": retryURL
        case "isNewerOnly": isNewerOnly
        case "imagesURL": imagesURL
        default: nil
        }
    }
}
