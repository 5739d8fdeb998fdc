import Hummingbird

/// A rendered page: `text/html; charset=utf-8`, with its status kept (an error page is not a 200).
struct HTML: ResponseGenerator {
    let body: ByteBuffer
    var status: HTTPResponse.Status = .ok
    var headers: HTTPFields = [:]

    init(_ page: some PageView, status: HTTPResponse.Status = .ok) {
        body = page.rendered().byteBuffer
        self.status = status
        let media = page.mediaSources
        if !media.isEmpty {
            headers[.contentSecurityPolicy] = SecurityHeaders<SiteContext>.policy(mediaSources: media)
        }
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }
}
