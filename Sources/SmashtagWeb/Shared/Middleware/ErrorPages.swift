import AppStore
import HTTPTypes
import Hummingbird
import Logging
import PostgresSupport
import Posts

/// Turns anything thrown below it into a response that keeps the status: the error page, or `{"error": …}` under
/// `/api/`. The sentence comes from the status alone, so no internal detail reaches a browser, unless the error was
/// written to be shown (`ExplainedHTTPError`); the error itself goes to the log. Sitting inside `SecurityHeaders`,
/// every error response carries the security headers.
struct ErrorPages<Context: RequestContext>: RouterMiddleware {
    let page: @Sendable (_ message: String, _ status: HTTPResponse.Status) -> HTML
    let logger: Logger

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let (status, headers) = Self.statusAndHeaders(of: error)
            log(error, status: status, request: request)
            let sentence =
                (error as? any ExplainedHTTPError)?.sentence ?? (error as? any MistakenRequest)?.description
                ?? Self.sentence(for: status)
            let response = try response(sentence, status: status, request: request, context: context)
            return request.method == .head ? response.createHeadResponse() : response.adding(headers)
        }
    }

    private func response(
        _ message: String, status: HTTPResponse.Status, request: Request, context: Context
    ) throws -> Response {
        if Route.answersJSON(request.uri.path[...]) {
            return try JSONBody(APIError(error: message), status: status).response
        }
        return try page(message, status).response(from: request, context: context)
    }

    private static func statusAndHeaders(of error: any Error) -> (HTTPResponse.Status, HTTPFields) {
        if let error = error as? HTTPError { return (error.status, error.headers) }
        if let error = error as? TeamRefusal { return (error.status, error.headers) }
        if let error = error as? any HTTPResponseError { return (error.status, [:]) }
        // A term or query the request got wrong (a control character, too long, blank) wherever it is read.
        if error is any MistakenRequest { return (.badRequest, [:]) }
        if error is any LocalOutage || (error as? SourcesFailed)?.isOutage == true {
            return (.serviceUnavailable, [.retryAfter: "5"])
        }
        return (.internalServerError, [:])
    }

    private func log(_ error: any Error, status: HTTPResponse.Status, request: Request) {
        let level: Logger.Level = status.kind == .serverError ? .error : .debug
        logger.log(
            level: level, "\(request.method) \(request.uri.path) failed: \(status.code)",
            metadata: ["error": "\(error)"])
    }

    /// What the person is told, by status.
    static func sentence(for status: HTTPResponse.Status) -> String {
        switch status {
        case .badRequest: "This address is not valid. Check it, or go back and try again."
        case .forbidden: "This request was refused."
        case .notFound: "There is nothing at this address."
        case .methodNotAllowed: "This address does not take that kind of request."
        case .contentTooLarge: "This request is too large."
        case .serviceUnavailable: "The database cannot be reached just now. Try again in a few seconds."
        default:
            status.kind == .serverError
                ? "Something went wrong on our side. Try again in a moment."
                : "This request could not be completed."
        }
    }
}

/// An error whose sentence is written for the person who sent the request (what was wrong with it, nothing
/// internal), so the error page shows it rather than the status's general sentence.
protocol ExplainedHTTPError: HTTPResponseError {
    var sentence: String { get }
}

/// A request refused with a sentence for the person who sent it (what was wrong with it, and what to do): the error
/// page shows it, a JSON twin answers it as `{"error": …}`, with its status.
struct RefusedRequest: ExplainedHTTPError {
    let status: HTTPResponse.Status
    let sentence: String

    init(_ status: HTTPResponse.Status, _ sentence: String) {
        (self.status, self.sentence) = (status, sentence)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status)
    }
}

/// An error in a JSON twin's answer.
struct APIError: Encodable {
    let error: String
    /// When every source failed: each one's sentence.
    var errors: [SearchDocument.SourceError]? = nil
}

extension Response {
    /// The response with these headers added (the error's own, such as `Allow` on a 405).
    func adding(_ fields: HTTPFields) -> Response {
        var response = self
        for field in fields { response.headers[field.name] = field.value }
        return response
    }
}
