import DemoCorpus
import Foundation
import Hummingbird

/// The demo's avatars and images, drawn from their path: no network, and cached for a year since a path always
/// draws the same picture.
struct DemoPicturesController: Sendable {
    func addRoutes(to router: Router<SiteContext>) {
        router.on(.demoAvatar) { request, _ in try picture(request) }
        router.on(.demoImage) { request, _ in try picture(request) }
    }

    private func picture(_ request: Request) throws -> Response {
        let path = request.uri.path.removingPercentEncoding ?? request.uri.path
        guard let svg = DemoPicture.svg(forPath: path) else { throw HTTPError(.notFound) }
        var headers = HTTPFields()
        headers[.contentType] = "image/svg+xml"
        headers[.cacheControl] = "public, max-age=31536000, immutable"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: svg)))
    }
}
