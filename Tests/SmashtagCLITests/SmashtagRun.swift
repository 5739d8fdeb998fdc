import Foundation

/// One run of the real `smashtag` binary, as a script would run it.
struct SmashtagRun {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = repository.appendingPathComponent("Tests/TwitterTests/Fixtures")

    let status: Int32
    let stdout: String
    let stderr: String

    /// Where the build put the commands: beside the running tests (whatever `--scratch-path` the build used), else
    /// `.build/debug`.
    static let products: URL = {
        if let tests = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent(),
            FileManager.default.fileExists(atPath: tests.appendingPathComponent("smashtag").path)
        {
            return tests
        }
        return repository.appendingPathComponent(".build/debug")
    }()

    static let executable = products.appendingPathComponent("smashtag")
    /// The benchmarks' command, which some tests drive to count many pages at once.
    static let bench = products.appendingPathComponent("smashtag-bench")

    init(executable: URL = Self.executable, _ arguments: [String], environment: [String: String] = [:]) throws {
        let process = try ChildProcess(
            executable, arguments, environment: environment, output: .pipe, errorOutput: .pipe)
        let stdout = process.output?.readDataToEndOfFile() ?? Data()
        let stderr = process.errorOutput?.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        self.status = process.terminationStatus
        self.stdout = String(decoding: stdout, as: UTF8.self)
        self.stderr = String(decoding: stderr, as: UTF8.self)
    }

    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// Runs on a thread of its own (`offThePool`).
    static func run(
        executable: URL = Self.executable, _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> SmashtagRun {
        try await offThePool { try SmashtagRun(executable: executable, arguments, environment: environment) }
    }

    /// Blocking work (waiting for a process) on a thread of its own: a test waiting must not hold one of the few
    /// threads Swift's concurrency has (on 2 cores, two), or a stub server the process talks to could never answer
    /// it, and every other test running meanwhile would stall.
    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Waits for `process` to end, off the pool (see `offThePool`): a server stopping gracefully may first finish a
    /// request to a stub of this process.
    static func exit(of process: ChildProcess) async throws {
        try await offThePool { process.waitUntilExit() }
    }

    /// A fresh, empty data directory.
    static func temporaryDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("smashtag-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }
}
