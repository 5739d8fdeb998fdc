import GRDB
import SQLiteSupport

/// What changes a SQLite store: this process's commits (through GRDB's observation) and other processes' (which
/// SQLite reports only as a new `PRAGMA data_version` on a connection of their own, asked a few times a second — not a
/// query of the tables). SQLite cannot say which term changed, so every live page hears of every change.
enum DatabaseChanges {
    /// How often another process's commit is looked for: well within the few seconds a live page may take.
    static let dataVersionInterval = Duration.milliseconds(250)

    /// `generation`: other processes' commits; nil in memory, where there are none.
    static func signals(writer: any DatabaseWriter, generation: DatabaseGeneration?) -> ChangeSignals {
        ChangeSignals { signals in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await observe(writer) { signals.signal(nil) } }
                if let generation { group.addTask { try? await watch(generation) { signals.signal(nil) } } }
            }
        }
    }

    private static func observe(_ writer: any DatabaseWriter, changed: @Sendable () -> Void) async throws {
        let observation = ValueObservation.tracking(
            region: Table("mentionCount"), Table("recent"), fetch: { _ in true })
        for try await _ in observation.values(in: writer, bufferingPolicy: .bufferingNewest(1)) { changed() }
    }

    private static func watch(_ generation: DatabaseGeneration, changed: () -> Void) async throws {
        var seen = try generation.current()
        while true {
            try await Task.sleep(for: dataVersionInterval)
            let now = try generation.current()
            if now != seen { changed() }
            seen = now
        }
    }
}
