import Foundation
import Synchronization
import Testing

@testable import SmashtagWeb

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Datasets are made a few at a time, the others waiting in order; a download's files live in a folder its process
/// owns, and what a stopped process left is removed when a server starts, whatever its age.
@Suite struct DownloadTurnsTests {
    /// Turns that `work` holds until the test lets it go.
    private final class Gate: Sendable {
        private let state = Mutex((running: 0, most: 0, started: [Int](), open: Set<Int>()))

        func run(_ id: Int) async throws {
            state.withLock {
                $0.running += 1
                $0.most = max($0.most, $0.running)
                $0.started.append(id)
            }
            while !state.withLock({ $0.open.contains(id) }) { try await Task.sleep(for: .milliseconds(5)) }
            state.withLock { $0.running -= 1 }
        }

        func open(_ id: Int) { state.withLock { _ = $0.open.insert(id) } }
        var started: [Int] { state.withLock { $0.started } }
        var most: Int { state.withLock { $0.most } }
    }

    /// Waits (bounded) until `condition` holds.
    private func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<2_000 where !condition() { try await Task.sleep(for: .milliseconds(5)) }
        return condition()
    }

    @Test func twoAtOnceTheRestInTheOrderTheyCame() async throws {
        let turns = DownloadTurns(most: 2)
        let gate = Gate()
        var downloads: [Task<Void, any Error>] = []
        for id in 0..<5 {
            #expect(turns.ahead == max(0, id - 1), "downloads ahead of number \(id)")
            downloads.append(Task { try await turns.withTurn { try await gate.run(id) } })
            #expect(try await eventually { turns.ahead == id }, "once it has started or joined the line")
        }
        // The first two run at once: which of them reaches its work first is the scheduler's.
        #expect(try await eventually { Set(gate.started) == [0, 1] })
        for id in 0..<5 {
            gate.open(id)
            try await downloads[id].value
            // The download that took the freed turn has started before the next is let go: a loaded machine may
            // run it late, but not out of turn.
            #expect(try await eventually { gate.started.count == min(5, id + 3) })
        }
        #expect(gate.started.dropFirst(2) == [2, 3, 4] && gate.most == 2)
        #expect(turns.ahead == 0)
    }

    @Test func aDownloadWhoseClientLeftWhileWaitingLeavesTheLine() async throws {
        let turns = DownloadTurns(most: 1)
        let gate = Gate()
        let first = Task { try await turns.withTurn { try await gate.run(0) } }
        #expect(try await eventually { gate.started == [0] })
        let left = Task { try await turns.withTurn { try await gate.run(1) } }
        let next = Task { try await turns.withTurn { try await gate.run(2) } }
        #expect(try await eventually { turns.ahead == 3 })
        left.cancel()
        await #expect(throws: CancellationError.self) { try await left.value }
        #expect(turns.ahead == 2)
        gate.open(0)
        gate.open(2)
        try await first.value
        try await next.value
        #expect(gate.started == [0, 2])
    }
}

@Suite struct TemporaryFolderTests {
    private let parent = FileManager.default.temporaryDirectory.appendingPathComponent(
        "smashtag-tmp-\(UUID().uuidString)"
    ).path

    private func make(_ path: String, folder: Bool = false) throws {
        if folder {
            try FileManager.default.createDirectory(atPath: parent + "/" + path, withIntermediateDirectories: true)
        } else {
            try Data("left behind".utf8).write(to: URL(fileURLWithPath: parent + "/" + path))
        }
    }

    private var names: Set<String> { Set((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []) }

    /// What a server killed mid-download left (its zip and its tables' partial files, however new), what an earlier
    /// release left in `tmp` itself, and an owner file never locked are removed; a running server's folder is not.
    @Test func aStartingServerRemovesWhatStoppedProcessesLeftAndOnlyThat() throws {
        try make("41-7/dataset-A.zip.tables", folder: true)
        try make("41-7/dataset-A.zip")
        try make("41-7/dataset-A.zip.tables/.posts.csv.partial-41")
        try make("41-7.owner")
        try make("dataset-B.zip")
        try make("dataset-B.zip.tables", folder: true)
        try make(".unlocked-42-9")
        try make("43-1/dataset-C.zip.tables", folder: true)
        try make("43-1.owner")
        // Another server sending now: it holds its owner file's lock.
        let running = open(parent + "/43-1.owner", O_RDONLY | O_CLOEXEC)
        defer { close(running) }
        #expect(flock(running, LOCK_EX | LOCK_NB) == 0)

        let folder = try TemporaryFolder(in: parent)
        let own = String(folder.path.split(separator: "/").last!)
        #expect(names == ["43-1", "43-1.owner", own, own + ".owner"])
        #expect(FileManager.default.fileExists(atPath: parent + "/43-1/dataset-C.zip.tables"))
        #expect(folder.file(named: "x.zip") == parent + "/" + own + "/x.zip")

        // A second server beside it leaves it alone too.
        let second = try TemporaryFolder(in: parent)
        #expect(names.isSuperset(of: [own, own + ".owner"]) && names.count == 6)
        _ = second
    }

    @Test func aServerThatStopsTakesItsFolderWithIt() throws {
        do {
            let folder = try TemporaryFolder(in: parent)
            try Data("zip".utf8).write(to: URL(fileURLWithPath: folder.file(named: "dataset.zip")))
            #expect(names.count == 2)
        }
        #expect(names.isEmpty)
    }
}
