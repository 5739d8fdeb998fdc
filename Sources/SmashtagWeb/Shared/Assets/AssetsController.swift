import Hummingbird

/// `/assets/NAME`: the hashed stylesheet and script, cached for a year, compressed when the browser takes gzip.
struct AssetsController: Sendable {
    let assets: StaticAssets

    func addRoutes(to router: Router<SiteContext>) {
        router.on(.asset) { request, context in try asset(request, name: context.parameters.require("name")) }
    }

    private func asset(_ request: Request, name: String) throws -> Response {
        guard let asset = assets.asset(named: name) else { throw HTTPError(.notFound) }
        var headers: HTTPFields = [
            .contentType: asset.contentType, .cacheControl: "public, max-age=31536000, immutable",
            .eTag: "\"\(asset.hash)\"", .vary: "Accept-Encoding",
        ]
        // Either representation's validator (strong, or weak for the gzip one) names the same bytes.
        if request.headers[.ifNoneMatch]?.contains(asset.hash) == true {
            return Response(status: .notModified, headers: headers)
        }
        guard Gzip.isAccepted(by: request.headers[.acceptEncoding]) else {
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: asset.bytes))
        }
        headers[.contentEncoding] = "gzip"
        headers[.eTag] = "W/\"\(asset.hash)\""
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: asset.gzipped))
    }
}
