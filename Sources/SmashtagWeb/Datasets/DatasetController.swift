import AppStore
import Exports
import Foundation
import Hummingbird
import SmashtagApp

/// `/api/popularity/posts`: a term's posts as a dataset, from the Popularity page's Download form or a script.
/// NDJSON is streamed a batch at a time as it is read; the CSV tables' zip is made in the data directory's `tmp`
/// folder and streamed as each entry is finished (`ZipStream`), then deleted.
struct DatasetController: Sendable {
    let site: Site

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.on(.apiDataset) { request, context in try await download(request, context) }
    }

    private func download(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let parameters = try DatasetParameters(request.queryString)
        let now = Date()
        guard
            let batches = try await TermPosts(database: site.database).batches(
                of: parameters.term, window: parameters.window, now: now)
        else { throw RefusedRequest(.notFound, DatasetError.notInRecents(parameters.term).description) }
        let pseudonymiser =
            try parameters.pseudonymises ? Pseudonymiser(secret: PseudonymKey.secret(in: site.directory.path)) : nil
        let name = parameters.fileName(term: batches.term)
        switch parameters.format {
        case .ndjson:
            let dataset = Dataset(batches: batches, tables: nil, pseudonymiser: pseudonymiser)
            let body = ResponseBody { writer in
                try await dataset.writeNDJSON { try await writer.write(ByteBuffer(bytes: $0)) }
                try await writer.finish(nil)
            }
            return Download.response(body, type: "application/x-ndjson; charset=utf-8", name: name)
        case .csv:
            let tables: TermTables
            do {
                tables = try await TermTables.read(
                    for: parameters.term, window: parameters.window, now: now, in: site.database)
            } catch let error as DatasetError {
                throw RefusedRequest(.notFound, error.description)  // it left Recents since its posts were found
            }
            let dataset = Dataset(batches: batches, tables: tables, pseudonymiser: pseudonymiser)
            let file = try site.temporaryFile(named: "dataset-\(UUID().uuidString).zip")
            return Download.response(
                ZipStream(file: file, logger: site.logger).body { final in
                    try await dataset.writeZip(toTemporaryFile: file, folder: String(name.dropLast(4)), final: final)
                }, type: "application/zip", name: name)
        }
    }
}
