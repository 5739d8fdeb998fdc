import Hummingbird
import Posts

/// A file to download: its type, and its name as UTF-8 (RFC 6266's `filename*`), which a term's letters may need.
enum Download {
    static func response(_ text: String, type: String, name: String) -> Response {
        response(.init(byteBuffer: ByteBuffer(string: text)), type: type, name: name)
    }

    /// A file sent as it is made (a dataset).
    static func response(_ body: ResponseBody, type: String, name: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.contentDisposition] = "attachment; filename*=UTF-8''" + URLQuery.encode(name)
        return Response(status: .ok, headers: headers, body: body)
    }
}
