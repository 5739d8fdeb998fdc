import AppStore
import DemoCorpus
import Exports
import Foundation
import HTTPTypes
import Hummingbird
import SmashtagApp
import Team

/// `/api/popularity/posts`: a term's posts as a dataset, from the Popularity page's Download form or a script.
/// NDJSON is streamed a batch at a time as it is read; the CSV tables' zip is made in the server's temporary folder
/// and streamed as each entry is finished (`ZipStream`), then deleted. A few are made at once (`DownloadTurns`): the
/// answer of one that waits begins at once and says how many were ahead of it.
struct DatasetController: Sendable {
    let site: Site

    func addRoutes(to router: Router<SiteContext>) {
        router.on(.apiDataset) { request, context in try await download(request, context) }
    }

    /// Only whether the term is in Recents is asked before the answer begins; its posts and tables are read in the
    /// download's turn.
    private func download(_ request: Request, _ context: SiteContext) async throws -> Response {
        let parameters = try DatasetParameters(context.queryString)
        if !parameters.pseudonymises, !context.caller.may(Needs.identified) {
            throw RefusedRequest(
                .forbidden,
                "Datasets with people’s names need the admin role: ask for a pseudonymised one (pseudonymise=1).")
        }
        guard let shown = try await TermPosts(database: site.database).shown(parameters.term) else {
            throw RefusedRequest(.notFound, DatasetError.notInRecents(parameters.term).description)
        }
        let pseudonymiser =
            try parameters.pseudonymises ? Pseudonymiser(secret: PseudonymKey.secret(in: site.directory.path)) : nil
        try site.spend(.downloads, by: context)
        try await site.record("export", parameters.auditDetail(term: shown), by: context)
        let name = parameters.fileName(term: shown)
        var demoSeed: UInt64?
        if let corpus = site.corpus { demoSeed = try await Demo.seed(of: corpus) }
        let dataset = DatasetRead(parameters: parameters, now: Date(), database: site.database, demoSeed: demoSeed)
        let ahead = site.downloads.ahead
        let response: Response
        switch parameters.format {
        case .ndjson:
            let body = ResponseBody { [downloads = site.downloads] writer in
                try await downloads.withTurn {
                    try await dataset.posts(pseudonymiser).writeNDJSON { try await writer.write(ByteBuffer(bytes: $0)) }
                }
                try await writer.finish(nil)
            }
            response = Download.response(body, type: "application/x-ndjson; charset=utf-8", name: name)
        case .csv:
            let file = site.temporaryFolder.file(named: "dataset-\(UUID().uuidString).zip")
            let body = ZipStream(file: file, logger: site.logger).body { [downloads = site.downloads] final in
                try await downloads.withTurn {
                    try await dataset.tables(pseudonymiser).writeZip(
                        toTemporaryFile: file, folder: String(name.dropLast(4)), final: final)
                }
            }
            response = Download.response(body, type: "application/zip", name: name)
        }
        return response.saying(downloadsAhead: ahead)
    }
}

/// What a download reads in its turn. A term that left Recents meanwhile ends the download early (its answer has
/// begun): rare, and said in the log.
private struct DatasetRead: Sendable {
    let parameters: DatasetParameters
    let now: Date
    let database: AppDatabase
    let demoSeed: UInt64?

    func posts(_ pseudonymiser: Pseudonymiser?) async throws -> Dataset<CountedPostBatches> {
        let batches = try await batches()
        return Dataset(
            batches: batches, tables: nil, pseudonymiser: pseudonymiser, provenance: try await provenance(batches.term))
    }

    func tables(_ pseudonymiser: Pseudonymiser?) async throws -> Dataset<CountedPostBatches> {
        let batches = try await batches()
        let tables = try await TermTables.read(
            for: parameters.term, window: parameters.window, now: now, in: database)
        return Dataset(
            batches: batches, tables: tables, pseudonymiser: pseudonymiser,
            provenance: try await provenance(batches.term))
    }

    private func provenance(_ term: String) async throws -> Provenance {
        Provenance(
            subject: .term(term), window: parameters.window, made: now, pseudonymised: parameters.pseudonymises,
            demoSeed: demoSeed, rechecks: try await database.recheckState(term: term),
            consent: try await database.consentRules())
    }

    private func batches() async throws -> CountedPostBatches {
        guard
            let batches = try await TermPosts(database: database).batches(
                of: parameters.term, window: parameters.window, now: now)
        else { throw DatasetError.notInRecents(parameters.term) }
        return batches
    }
}

extension Response {
    /// `Smashtag-Downloads-Ahead`: how many downloads were being made or waiting when this one was asked for, beyond
    /// those made at once (0: it started at once).
    fileprivate func saying(downloadsAhead ahead: Int) -> Response {
        var response = self
        response.headers[.downloadsAhead] = String(ahead)
        return response
    }
}

extension HTTPField.Name {
    static let downloadsAhead = HTTPField.Name("Smashtag-Downloads-Ahead")!
}
