import WireJSON

/// A post's JSON, written one way for every use: the public form (`JSONWriter.writePublic`, keys sorted, times as
/// ISO-8601) — `inspect --format json`, the JSON twins, the NDJSON export, and what the stores keep — and read back
/// one way, by `Post(json:)`, which also reads what earlier releases stored (`created` as seconds since 2001).
extension Post {
    /// As `search --format json`, `inspect` and the JSON twins give it: times to the second.
    package var publicJSON: String {
        var json = JSONWriter()
        json.writePublic(self, times: .wholeSeconds)
        return json.output.string
    }

    /// As the stores keep it: times to the microsecond, so the post reads back equal.
    package var storedJSON: String {
        var json = JSONWriter()
        json.writePublic(self, times: .microseconds(counted: nil))
        return json.output.string
    }
}
