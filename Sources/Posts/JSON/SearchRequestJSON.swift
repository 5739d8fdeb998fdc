import WireJSON

/// Follow-on requests written straight to JSON in their `Codable` form (so `JSONDecoder` reads them back equal),
/// without `JSONEncoder`: a search session stores two maps of them with every page, and `JSONEncoder` took 2% of a
/// server's time searching a different query on every request.
extension JSONWriter {
    /// `{source: request}`, sources in order.
    package mutating func write(_ requests: [String: SearchRequest]) {
        write(requests.mapValues(Optional.some))
    }

    /// `{source: request or null}`, sources in order.
    package mutating func write(_ requests: [String: SearchRequest?]) {
        beginObject()
        for (source, request) in requests.sorted(by: { $0.key < $1.key }) { write(request, as: source) }
        endObject()
    }

    private mutating func write(_ request: SearchRequest?, as key: String) {
        guard let request else { return member(key, number: "null") }
        beginObject(key)
        member("count", request.count)
        beginObject("position")
        write(request.position)
        endObject()
        member("query", request.query)
        endObject()
    }

    /// As Swift synthesizes an enum's coding: the case's name, holding its labelled values; a nil token left out.
    private mutating func write(_ position: SearchRequest.Position) {
        switch position {
        case .newest:
            beginObject("newest")
        case .newer(let than):
            beginObject("newer")
            member("than", than)
        case .older(let than, let token):
            beginObject("older")
            member("than", than)
            if let token { member("token", token) }
        }
        endObject()
    }
}
