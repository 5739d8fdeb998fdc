import AppStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PostgresSupport
import ServiceLifecycle
import Team
import TestSupport
import Testing

@testable import SmashtagWeb

/// Every route × {anonymous, viewer, researcher, admin, a researcher's token}, on SQLite and PostgreSQL: each answers
/// as the GUIDE's table of roles says. The table is written out here, not read from the code it checks.
struct AccessTests {
    /// The GUIDE's table: the least each route needs.
    static let least: [String: Access] = [
        "GET /assets/:name": .anyone, "GET /demo/avatars/:name": .anyone, "GET /demo/images/:name": .anyone,
        "GET /signin": .anyone, "POST /signin": .anyone, "POST /signout": .anyone,
        "GET /api/openapi.json": .anyone, "GET /healthz": .anyone, "GET /readyz": .anyone,
        "GET /metrics": .thisComputerOrAdmin,
        "GET /": .visitor, "GET /search": .visitor, "GET /search/search": .visitor, "GET /recents/search": .visitor,
        "GET /search/posts/:network/:id": .visitor, "GET /recents/posts/:network/:id": .visitor,
        "GET /search/tweets/:id": .visitor, "GET /recents/tweets/:id": .visitor,
        "GET /search/thread/:network/:id": .visitor, "GET /recents/thread/:network/:id": .visitor,
        "GET /api/threads/:network/:id": .visitor,
        "GET /search/popularity": .visitor, "GET /recents/popularity": .visitor,
        "GET /search/popularity/trend": .visitor, "GET /recents/popularity/trend": .visitor,
        "GET /search/popularity/network": .visitor, "GET /recents/popularity/network": .visitor,
        "GET /search/image": .visitor, "GET /recents/image": .visitor,
        "GET /search/images": .visitor, "GET /recents/images": .visitor,
        "GET /api/search": .visitor, "GET /api/posts/:network/:id": .visitor, "GET /api/tweets/:id": .visitor,
        "GET /api/popularity": .visitor, "GET /api/popularity/events": .visitor, "GET /api/popularity/trend": .visitor,
        "GET /api/popularity/network": .visitor, "GET /api/popularity/conversations": .visitor,
        "GET /search/feed": .visitor,
        "GET /recents": .viewer, "POST /recents/delete": .viewer, "GET /api/recents": .viewer,
        "GET /api/tracking": .viewer, "GET /account": .viewer, "GET /search/popularity/volume": .viewer,
        "GET /recents/popularity/volume": .viewer, "GET /api/volume": .viewer,
        "POST /recents/track": .researcher, "POST /recents/untrack": .researcher, "POST /api/tracking": .researcher,
        "POST /api/tracking/delete": .researcher, "GET /api/popularity/posts": .researcher,
        "GET /audit": .admin, "GET /api/audit": .admin,
    ]

    /// Requests that ask more than their route: exports of files, identified datasets.
    static let more: [(request: String, least: Access)] = [
        ("GET /api/popularity/network?term=%23x&format=csv", .researcher),
        ("GET /api/popularity/network?term=%23x&format=gexf", .researcher),
        ("GET /api/popularity?term=%23x&format=csv", .researcher),
        ("GET /api/popularity/posts?term=%23x", .admin),
    ]

    enum Who: String, CaseIterable, CustomTestStringConvertible {
        case anonymous, viewer, researcher, admin, token
        var testDescription: String { rawValue }
        var role: Role? {
            switch self {
            case .anonymous: nil
            case .viewer: .viewer
            case .researcher, .token: .researcher
            case .admin: .admin
            }
        }
    }

    @Test func everyRouteIsInTheTable() {
        for route in Route.all {
            #expect(
                Self.least["\(route.method) \(route.pattern)"] != nil, "\(route.method) \(route.pattern) has no row")
        }
        #expect(Set(Route.all.map { "\($0.method) \($0.pattern)" }).count == Self.least.count)
    }

    static let stores = TestPostgres.url == nil ? ["sqlite"] : ["sqlite", "postgres"]

    @Test(arguments: stores) func everyRouteAnswersEachCallerAsTheTableSays(store: String) async throws {
        let (app, credentials) = try await Self.teamApp(postgres: store == "postgres")
        try await app.test(.router) { client in
            for route in Route.all {
                let key = "\(route.method) \(route.pattern)"
                try await check(key, least: Self.least[key]!, credentials, client)
            }
            for (request, least) in Self.more { try await check(request, least: least, credentials, client) }
        }
    }

    private func check(
        _ request: String, least: Access, _ credentials: [Who: HTTPFields], _ client: some TestClientProtocol
    ) async throws {
        let parts = request.split(separator: " ", maxSplits: 1)
        let method = HTTPRequest.Method(String(parts[0]))!
        let uri = Self.sample(String(parts[1]))
        for who in Who.allCases {
            var headers = credentials[who] ?? [:]
            var body: ByteBuffer?
            if method == .post {
                headers[.contentType] =
                    uri.hasPrefix("/api/") ? "application/json" : "application/x-www-form-urlencoded"
                body = ByteBuffer(string: uri.hasPrefix("/api/") ? ##"{"term":"#x"}"## : "term=%23x&csrf=none")
            }
            let response = try await client.execute(uri: uri, method: method, headers: headers, body: body)
            let refused = Self.isRefusal(response)
            let allowed = Self.grants(who.role, least)
            #expect(
                refused == !allowed,
                "\(request) as \(who): \(response.status) \(String(buffer: response.body).prefix(160))")
        }
    }

    /// Whether someone with `role` (nil: signed out, on a Smashtag that is not public) may use what needs `least`.
    static func grants(_ role: Role?, _ least: Access) -> Bool {
        switch least {
        case .anyone: true
        case .visitor: role != nil
        case .role(let needed): role.map { $0 >= needed } ?? false
        // The router's test client is inside this process, so this computer; test_operations.py asks from elsewhere.
        case .thisComputerOrAdmin: true
        }
    }

    /// 401, a 403 naming the role needed, or the sign-in page instead.
    static func isRefusal(_ response: TestResponse) -> Bool {
        let text = String(buffer: response.body)
        return response.status == .unauthorized
            || (response.status == .forbidden
                && (text.contains("which you do not have") || text.contains("need the admin role")))
            || (response.status == .seeOther && response.headers[.location]?.hasPrefix("/signin") == true)
    }

    /// A concrete address for a pattern: each `:name` filled, a term given.
    static func sample(_ pattern: String) -> String {
        let path = pattern.split(separator: "?")[0].split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(":") ? "x" : String($0) }.joined(separator: "/")
        if pattern.contains("?") { return pattern }
        // The API takes only the parameters its description lists (any other is a 400 before any route runs).
        if path.hasPrefix("/api/popularity/posts") { return path + "?term=%23x&pseudonymise=1" }
        if path.hasPrefix("/api/popularity") { return path + "?term=%23x" }
        if path == "/api/search" { return path + "?q=%23x" }
        if path.hasPrefix("/api/") { return path }
        return path + "?term=%23x&q=%23x"
    }

    /// A team's Smashtag (people added, not public) with no sources, and each caller's credentials.
    static func teamApp(postgres: Bool) async throws -> (some ApplicationProtocol, [Who: HTTPFields]) {
        var arguments = TestArguments(dataDirectory: try await WebFixture.dataDirectory())
        arguments.sourceNames = []
        if postgres { arguments.database = try PostgresURL(try await TestPostgres.newDatabase()) }
        let site = try await Site.open(arguments, logger: WebFixture.quietLogger)
        if let service = site.database.service { Task { try await service.run() } }
        let people = People(database: site.database)
        var credentials: [Who: HTTPFields] = [:]
        for who in [Who.viewer, .researcher, .admin] {
            let person = try await people.add(who.rawValue, role: who.role!, passwordHash: "unused")
            let session = Secrets.sessionID()
            try await people.startSignIn(idHash: Secrets.hash(session), person: person, lasting: .seconds(3600))
            credentials[who] = [.cookie: "\(SignInCookie.name)=\(session)"]
        }
        let (token, prefix) = Secrets.token()
        try await people.createToken(
            prefix: prefix, hash: Secrets.hash(token), for: "admin", role: .researcher, expires: nil)
        credentials[.token] = [.authorization: "Bearer \(token)"]
        return (Application(router: try buildRouter(site), logger: WebFixture.quietLogger), credentials)
    }
}
