// swift-tools-version: 6.2
import PackageDescription

let upcoming: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

extension Target.Dependency {
    static let asyncHTTPClient = Target.Dependency.product(name: "AsyncHTTPClient", package: "async-http-client")
    static let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
    static let crypto = Target.Dependency.product(name: "Crypto", package: "swift-crypto")
    static let compressNIO = Target.Dependency.product(name: "CompressNIO", package: "compress-nio")
    static let grdb = Target.Dependency.product(name: "GRDB", package: "GRDB.swift")
    static let httpTypes = Target.Dependency.product(name: "HTTPTypes", package: "swift-http-types")
    static let hummingbird = Target.Dependency.product(name: "Hummingbird", package: "hummingbird")
    static let hummingbirdCore = Target.Dependency.product(name: "HummingbirdCore", package: "hummingbird")
    static let metrics = Target.Dependency.product(name: "Metrics", package: "swift-metrics")
    static let prometheus = Target.Dependency.product(name: "Prometheus", package: "swift-prometheus")
    static let hummingbirdTesting = Target.Dependency.product(name: "HummingbirdTesting", package: "hummingbird")
    static let hummingbirdWebSocket = Target.Dependency.product(
        name: "HummingbirdWebSocket", package: "hummingbird-websocket")
    static let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
    static let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")
    static let nioHTTP1 = Target.Dependency.product(name: "NIOHTTP1", package: "swift-nio")
    static let nioPosix = Target.Dependency.product(name: "NIOPosix", package: "swift-nio")
    static let nioHTTPTypes = Target.Dependency.product(name: "NIOHTTPTypes", package: "swift-nio-extras")
    static let nioSSL = Target.Dependency.product(name: "NIOSSL", package: "swift-nio-ssl")
    static let postgresNIO = Target.Dependency.product(name: "PostgresNIO", package: "postgres-nio")
    static let serviceLifecycle = Target.Dependency.product(
        name: "ServiceLifecycle", package: "swift-service-lifecycle")
    static let wsClient = Target.Dependency.product(name: "WSClient", package: "swift-websocket")
    static let zipFoundation = Target.Dependency.product(name: "ZIPFoundation", package: "ZIPFoundation")
    static let bcrypt = Target.Dependency.product(name: "HummingbirdBcrypt", package: "hummingbird-auth")
}

/// A network's module: its formats decoded into posts and its live client.
func network(_ name: String, _ extra: [Target.Dependency] = []) -> Target {
    .target(
        name: name,
        dependencies: ["Posts", "WireJSON", "HTTPExchange", .asyncHTTPClient, .nioCore, .nioHTTP1, .logging] + extra,
        swiftSettings: upcoming
    )
}

/// A stand-in service for tests: a real server on 127.0.0.1 under `Tests/Support`.
func stub(_ name: String, _ extra: [Target.Dependency] = []) -> Target {
    .target(
        name: name,
        dependencies: ["StubServer", .hummingbird, .httpTypes, .nioCore] + extra,
        path: "Tests/Support/\(name)",
        swiftSettings: upcoming
    )
}

let package = Package(
    name: "Smashtag",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "smashtag", targets: ["SmashtagCLI"]),
        .executable(name: "smashtag-bench", targets: ["SmashtagBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", from: "1.6.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        // The streaming JSON reader and writer every wire format goes through, and ISO-8601 times as APIs write them.
        .target(name: "WireJSON", swiftSettings: upcoming),
        // The network-neutral post, the query language, the source interface, merging several sources, and a post's
        // text cut into segments for rendering. Knows no network, storage or web.
        .target(name: "Posts", dependencies: ["WireJSON", .metrics], swiftSettings: upcoming),
        // One request to a live service with a deadline and a bounded body, and the failures every network's client
        // shares (retry advice, back-off, secrets that never print).
        .target(
            name: "HTTPExchange",
            dependencies: ["Posts", "WireJSON", .asyncHTTPClient, .nioCore, .nioHTTP1],
            swiftSettings: upcoming
        ),
        // X: its wire formats (v1.1, v2, archives, twarc, Activity Streams) decoded exactly, and the API v2 client.
        network("Twitter"),
        // Mastodon: statuses' HTML content read into posts exactly, and the REST client.
        network("Mastodon"),
        // Bluesky: post views and records read into posts exactly, the XRPC client and Jetstream's WebSocket.
        network("Bluesky", [.wsClient]),
        // What the corpus and the app store share about SQLite files: opening them, their generation, checkpoints
        // beside the writer, reads on the calling thread.
        .target(
            name: "SQLiteSupport",
            dependencies: [
                .grdb,
                // The C API, for the one hook GRDB does not wrap (`WALCheckpointer`).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: upcoming
        ),
        // What the corpus and the app store share about PostgreSQL: addresses, a pool with deadlines and outages in
        // one sentence, migrations and elections under advisory locks.
        .target(
            name: "PostgresSupport",
            dependencies: [
                "Posts", .postgresNIO, .nioCore, .nioPosix, .nioSSL, .logging, .serviceLifecycle, .metrics,
            ],
            swiftSettings: upcoming
        ),
        // The post corpus, on SQLite (the embedded default) or PostgreSQL: storage and search with the whole query
        // language, posts of every network alike. Knows no network's formats.
        .target(
            name: "Corpus",
            dependencies: [
                "Posts", "WireJSON", "SQLiteSupport", "PostgresSupport", .grdb, .postgresNIO, .nioCore, .logging,
            ],
            swiftSettings: upcoming
        ),
        // Files of posts in every network's formats, recognised item by item and read into the corpus.
        .target(
            name: "FileImport",
            dependencies: ["Posts", "WireJSON", "Twitter", "Mastodon", "Bluesky", "Corpus"],
            swiftSettings: upcoming
        ),
        // The demo corpus: a seeded generator of X-shaped posts, their pictures, a twarc2 writer, the live tweeter.
        .target(name: "DemoCorpus", dependencies: ["Posts", "WireJSON", "Twitter", "Corpus"], swiftSettings: upcoming),
        // The app's own state, stored by feature (Recents, sessions, popularity and trends, networks, the posts kept,
        // datasets, tracked terms), each on SQLite and PostgreSQL.
        .target(
            name: "AppStore",
            dependencies: [
                "Posts", "WireJSON", "SQLiteSupport", "PostgresSupport", .grdb, .postgresNIO, .nioCore, .nioPosix,
                .nioSSL, .logging, .serviceLifecycle,
            ],
            swiftSettings: upcoming
        ),
        // What is taken away for other tools: CSV (formula-safe), co-mention networks as JSON, CSV and GEXF, a term's
        // posts as NDJSON or tidy CSV tables (a folder or a zip), pseudonymised with a keyed hash.
        .target(
            name: "Exports",
            dependencies: ["AppStore", "Posts", "WireJSON", .crypto, .nioPosix, .zipFoundation],
            swiftSettings: upcoming
        ),
        // Bluesky's firehose into the corpus: ingest, authors' profiles, retention.
        .target(
            name: "LiveIndex",
            dependencies: ["Posts", "Bluesky", "Corpus", "HTTPExchange", .logging, .metrics],
            swiftSettings: upcoming
        ),
        // The people who use a shared Smashtag: passwords hashed with bcrypt off the cooperative threads, sign-in
        // sessions and tokens as secrets whose hashes alone are kept, who a request is (and what their role lets them
        // do), failed sign-ins that make one wait, and the budgets of what spends the networks' limits.
        .target(
            name: "Team",
            dependencies: ["AppStore", "Posts", .bcrypt, .crypto, .nioPosix, .logging],
            swiftSettings: upcoming
        ),
        // What operators' tools read: the process's metrics for Prometheus, and its log as text or JSON lines.
        .target(
            name: "Telemetry", dependencies: ["WireJSON", .metrics, .prometheus, .logging], swiftSettings: upcoming),
        // Tracked terms collected on their schedule, within every network's rate limit.
        .target(
            name: "Tracking",
            dependencies: ["Posts", "AppStore", "HTTPExchange", .logging],
            swiftSettings: upcoming
        ),
        // The app's use cases, which the web app, the CLI and the benchmarks all call: a search asked of the sources and
        // recorded, live popularity; and how they are set up (the data directory, the sources by name, the corpus
        // opened with its demo or live index).
        .target(
            name: "SmashtagApp",
            dependencies: [
                "Posts", "HTTPExchange", "Twitter", "Mastodon", "Bluesky", "Corpus", "DemoCorpus", "LiveIndex",
                "AppStore",
                "PostgresSupport",
                .logging,
            ],
            swiftSettings: upcoming
        ),
        // The web app: Hummingbird routes in feature folders, typed rendering, static files, live events.
        .target(
            name: "SmashtagWeb",
            dependencies: [
                "SmashtagApp", "AppStore", "PostgresSupport", "Corpus", "DemoCorpus", "Exports", "LiveIndex",
                "Tracking", "Team", "Telemetry",
                "Posts", "WireJSON", .hummingbird, .hummingbirdCore,
                .serviceLifecycle, .logging, .httpTypes, .compressNIO, .nioCore, .nioPosix, .nioHTTPTypes, .nioHTTP1,
                .metrics, .prometheus,
            ],
            resources: [.copy("Public"), .copy("Operations/openapi.json")],
            swiftSettings: upcoming
        ),
        // The `smashtag` command: one file per subcommand.
        .executableTarget(
            name: "SmashtagCLI",
            dependencies: [
                "SmashtagApp", "SmashtagWeb", "AppStore", "PostgresSupport", "Corpus", "FileImport", "DemoCorpus",
                "Exports", "LiveIndex", "Tracking", "Team", "Telemetry", "Posts", "WireJSON", "Twitter",
                .argumentParser, .hummingbird, .logging, .asyncHTTPClient, .nioCore, .nioHTTP1,
            ],
            swiftSettings: upcoming
        ),
        // `smashtag-bench`: the committed benchmarks behind docs/PERFORMANCE.md and the lecture's baselines they are
        // measured against, out of the shipped command.
        .executableTarget(
            name: "SmashtagBench",
            dependencies: [
                "SmashtagApp", "AppStore", "PostgresSupport", "Corpus", "FileImport", "DemoCorpus", "LiveIndex",
                "Tracking", "Posts", "WireJSON", "Twitter", "Mastodon", "StubMastodon", .argumentParser, .grdb,
                .postgresNIO, .logging,
                .asyncHTTPClient, .nioCore, .nioHTTP1, .nioPosix,
            ],
            path: "Benchmarks/SmashtagBench",
            swiftSettings: upcoming
        ),

        // Test support: stand-in services (real servers on 127.0.0.1), the shared fixtures, the fakes.
        .target(
            name: "StubServer", dependencies: [.hummingbird, .httpTypes, .nioCore], path: "Tests/Support/StubServer",
            swiftSettings: upcoming),
        stub("StubXAPI"),
        stub("StubMastodon"),
        stub("StubBluesky"),
        stub("StubJetstream", [.hummingbirdWebSocket]),
        // The stand-in Jetstream as a process, for the browser tests of `serve --ingest bluesky`.
        .executableTarget(
            name: "stub-jetstream",
            dependencies: ["StubJetstream"],
            path: "Tests/Support/StubJetstreamServer",
            swiftSettings: upcoming
        ),
        // The shared fixtures (../shared/fixtures) as the conformance tests read them: folders, files, objects.
        .target(
            name: "FixtureFolders", dependencies: ["Posts", "WireJSON"], path: "Tests/Support/FixtureFolders",
            swiftSettings: upcoming),
        // Fakes at the boundary (a source that answers what a test scripts), posts made from words, and one small
        // corpus the web tests share.
        .target(
            name: "TestSupport",
            dependencies: ["Posts", "WireJSON", "Corpus", "DemoCorpus", "PostgresSupport", .postgresNIO, .logging],
            path: "Tests/Support/TestSupport",
            swiftSettings: upcoming
        ),

        .testTarget(name: "WireJSONTests", dependencies: ["WireJSON", "TestSupport"], swiftSettings: upcoming),
        .testTarget(name: "PostsTests", dependencies: ["Posts", "WireJSON", "TestSupport"], swiftSettings: upcoming),
        .testTarget(
            name: "TwitterTests",
            dependencies: [
                "Twitter", "Posts", "WireJSON", "FixtureFolders", "StubXAPI", "StubServer", "HTTPExchange",
                "TestSupport", .asyncHTTPClient,
            ],
            exclude: ["Fixtures"],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "MastodonTests",
            dependencies: [
                "Mastodon", "Posts", "WireJSON", "HTTPExchange", "StubMastodon", "StubServer",
                "FixtureFolders", .asyncHTTPClient,
            ],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "BlueskyTests",
            dependencies: [
                "Bluesky", "Posts", "WireJSON", "HTTPExchange", "StubBluesky", "StubServer",
                "FixtureFolders", .asyncHTTPClient,
            ],
            swiftSettings: upcoming
        ),
        .testTarget(name: "SQLiteSupportTests", dependencies: ["SQLiteSupport", .grdb], swiftSettings: upcoming),
        .testTarget(
            name: "CorpusTests",
            dependencies: [
                "Corpus", "Posts", "WireJSON", "Twitter", "SQLiteSupport", "PostgresSupport", "DemoCorpus",
                "TestSupport", "FixtureFolders", .grdb,
            ],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "FileImportTests",
            dependencies: ["FileImport", "Corpus", "Posts", "WireJSON", "Twitter", "TestSupport", "FixtureFolders"],
            exclude: ["Fixtures"],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "DemoCorpusTests",
            dependencies: ["DemoCorpus", "Corpus", "Posts", "WireJSON", "Twitter", "TestSupport"],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "AppStoreTests",
            dependencies: [
                "AppStore", "SmashtagApp", "Posts", "Corpus", "TestSupport", .grdb, .postgresNIO, .serviceLifecycle,
                .logging,
            ],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "TeamTests", dependencies: ["Team", "AppStore", "Posts", "TestSupport"], swiftSettings: upcoming),
        .testTarget(
            name: "ExportsTests", dependencies: ["Exports", "AppStore", "Posts", .zipFoundation],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "LiveIndexTests",
            dependencies: [
                "LiveIndex", "Bluesky", "Corpus", "Posts", "StubJetstream", "StubBluesky", "StubServer", "TestSupport",
                .grdb, .logging,
            ],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "TrackingTests",
            dependencies: [
                "Tracking", "SmashtagApp", "AppStore", "Corpus", "Mastodon", "Posts", "StubMastodon", "StubServer",
                "TestSupport", "HTTPExchange", "PostgresSupport", .serviceLifecycle,
                .logging,
            ],
            swiftSettings: upcoming
        ),
        // The web app's routes through HummingbirdTesting, and its server's connection handling on a real socket.
        .testTarget(
            name: "SmashtagWebTests",
            dependencies: [
                "SmashtagWeb", "SmashtagApp", "AppStore", "Corpus", "DemoCorpus", "LiveIndex", "Posts", "TestSupport",
                "Team", "PostgresSupport", "StubJetstream", "StubBluesky", .hummingbird, .hummingbirdTesting,
                .httpTypes,
                .grdb, .compressNIO, .serviceLifecycle,
                .nioCore, .nioPosix, .logging,
            ],
            swiftSettings: upcoming
        ),
        // The built `smashtag` and `smashtag-bench` run as a person or a script runs them.
        .testTarget(
            name: "SmashtagCLITests",
            dependencies: [
                "SmashtagCLI", "SmashtagBench", "StubXAPI", "StubMastodon", "StubBluesky", "StubJetstream",
                "StubServer",
            ],
            swiftSettings: upcoming
        ),
    ]
)
