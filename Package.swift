// swift-tools-version: 6.2
import PackageDescription

let upcoming: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Smashtag",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "smashtag", targets: ["smashtag"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", from: "1.6.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    ],
    targets: [
        // The network-neutral post, the query language, the source interface and the JSON reader and writer every
        // network's decoders share; knows no network, no storage and no web.
        .target(name: "Posts", swiftSettings: upcoming),
        // X: its wire formats (v1.1, v2, archives, twarc, Activity Streams) decoded exactly, and the X API v2 client.
        .target(
            name: "Twitter",
            dependencies: [
                "Posts",
                "HTTPExchange",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming
        ),
        // Mastodon: statuses' HTML content read into posts exactly, and the REST client (tag timelines, accounts,
        // search).
        .target(
            name: "Mastodon",
            dependencies: [
                "Posts",
                "HTTPExchange",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming
        ),
        // One request to a live service with a deadline and a bounded body, as every network's client sends it.
        .target(
            name: "HTTPExchange",
            dependencies: [
                "Posts",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: upcoming
        ),
        // Bluesky: post views read into posts exactly (facets' UTF-8 ranges as code points, embeds, labels), the
        // XRPC client (a session from an app password, searchPosts), and Jetstream's events over a WebSocket.
        .target(
            name: "Bluesky",
            dependencies: [
                "Posts",
                "HTTPExchange",
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming
        ),
        // A stand-in X API for tests: a real HTTP server on 127.0.0.1 that plays recorded-format responses and
        // records the requests it receives.
        .target(
            name: "StubXAPI",
            dependencies: [
                "StubServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tests/StubXAPI",
            swiftSettings: upcoming
        ),
        // What the stand-in services share: a server on a free local port, query strings, answers.
        .target(
            name: "StubServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tests/StubServer",
            swiftSettings: upcoming
        ),
        // The shared fixtures (../shared/fixtures) as the conformance tests read them: folders, files, objects.
        .target(name: "FixtureFolders", dependencies: ["Posts"], path: "Tests/FixtureFolders", swiftSettings: upcoming),
        // A stand-in Jetstream for tests: a WebSocket server that sends its events from a client's cursor and can drop
        // connections.
        .target(
            name: "StubJetstream",
            dependencies: [
                "StubServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ],
            path: "Tests/StubJetstream",
            swiftSettings: upcoming
        ),
        // A stand-in Bluesky service for tests: sessions that expire on demand, and searchPosts over fixed posts.
        // The stand-in Jetstream as a process, for the browser tests of `serve --ingest bluesky`.
        .executableTarget(name: "stub-jetstream", dependencies: ["StubJetstream"], path: "Tests/StubJetstreamServer", swiftSettings: upcoming),
        .target(
            name: "StubBluesky",
            dependencies: [
                "StubServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tests/StubBluesky",
            swiftSettings: upcoming
        ),
        // A stand-in Mastodon server for tests: pages a fixed timeline as Mastodon does, or fails on demand.
        .target(
            name: "StubMastodon",
            dependencies: [
                "StubServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tests/StubMastodon",
            swiftSettings: upcoming
        ),
        // The local tweet corpus (SQLite).
        .target(
            name: "Corpus",
            dependencies: [
                "Posts", "Twitter", .product(name: "GRDB", package: "GRDB.swift"),
                // The C API, for the one hook GRDB does not wrap (`WALCheckpointer`).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: upcoming
        ),
        // The app's model: the sources, mention sections, text segments, recents, popularity.
        .target(
            name: "Smashtag",
            dependencies: [
                "Posts", "Twitter", "Mastodon", "Bluesky", "Corpus",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: upcoming
        ),
        // The web app: routes, middleware, page view-models and their typed rendering, static files.
        .target(
            name: "SmashtagWeb",
            dependencies: [
                "Smashtag", "Corpus", "Posts", "Twitter",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            resources: [.copy("Public")],
            swiftSettings: upcoming
        ),
        // What only the benchmarks use: the lecture's per-row counting on SQLite and PostgreSQL, and filling a store to
        // the size the figures are measured at. Kept out of the product modules.
        .target(
            name: "StoreBenchmarks",
            dependencies: [
                "Smashtag", "Posts",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/StoreBenchmarks",
            swiftSettings: upcoming
        ),
        .executableTarget(
            name: "smashtag",
            dependencies: [
                "Posts", "Twitter", "Corpus", "Smashtag", "SmashtagWeb", "StoreBenchmarks",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: upcoming
        ),
        .testTarget(name: "PostsTests", dependencies: ["Posts"], swiftSettings: upcoming),
        .testTarget(
            name: "TwitterTests",
            dependencies: ["Posts", "Twitter", "FixtureFolders"],
            exclude: ["Fixtures"],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "MastodonTests",
            dependencies: ["Mastodon", "Posts", "StubMastodon", "StubServer", "FixtureFolders", .product(name: "AsyncHTTPClient", package: "async-http-client")],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "BlueskyTests",
            dependencies: ["Bluesky", "Posts", "StubBluesky", "StubServer", "FixtureFolders", .product(name: "AsyncHTTPClient", package: "async-http-client")],
            swiftSettings: upcoming
        ),
        .testTarget(name: "CorpusTests", dependencies: ["Corpus", "Posts", "Twitter", .product(name: "GRDB", package: "GRDB.swift")], swiftSettings: upcoming),
        .testTarget(
            name: "XAPITests",
            dependencies: ["Posts", "Twitter", "StubXAPI", .product(name: "AsyncHTTPClient", package: "async-http-client")],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "SmashtagTests",
            dependencies: [
                "Smashtag", "Posts", "Twitter", "Corpus", "Bluesky", "StubJetstream", "StubBluesky", "StubServer",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: upcoming
        ),
        // The web app's routes through HummingbirdTesting, and its server's connection handling on a real socket.
        .testTarget(
            name: "WebTests",
            dependencies: [
                "SmashtagWeb", "Smashtag", "Corpus", "Posts", "Twitter", "StubJetstream", "StubBluesky",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: upcoming
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["smashtag", "StubXAPI", "StubMastodon", "StubBluesky", "StubJetstream"],
            swiftSettings: upcoming
        ),
    ]
)
