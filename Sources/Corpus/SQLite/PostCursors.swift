import GRDB
import GRDBSQLite

/// Which way a page walks the matches. Cursors only ever walk keys downwards; reading oldest first negates the
/// ids, so one set of cursors serves both directions.
enum WalkDirection {
    case newestFirst
    case oldestFirst

    func key(_ id: Int64) -> Int64 { self == .newestFirst ? id : -id }
    func id(_ key: Int64) -> Int64 { self == .newestFirst ? key : -key }
}

/// The order keys of the posts matching part of a query, walked from high keys to low.
protocol PostCursor: AnyObject {
    /// The highest matching key ≤ `key`. Successive calls never ask for a higher key than before.
    func seek(atMost key: Int64) throws -> Int64?
}

/// One index list read from the database in chunks: a term's postings or a full-text match. A walk down the list
/// reads chunks that grow (16 → 4,096 keys), so a page costs a few queries however long the list; a seek that
/// jumps past keys it never returned (the rarer partner of an `AllOf` leading) reads a small chunk from where it
/// lands, so the commoner list is probed, not read through.
final class IndexCursor: PostCursor {
    private static let smallest = 16
    private static let largest = 4096

    private let statement: Statement
    private let list: any DatabaseValueConvertible
    private let direction: WalkDirection
    private var keys: [Int64] = []
    private var index = 0
    private var atEnd = false
    private var chunk = IndexCursor.smallest
    /// The last key returned: whether the next fetch continues the walk or jumps.
    private var returned: Int64?

    /// `sql` selects ids for `?1` (the list), bounded by `?2` and limited to `?3` rows, in walking order.
    init(db: Database, sql: String, list: any DatabaseValueConvertible, direction: WalkDirection) throws {
        self.statement = try db.cachedStatement(sql: sql)
        self.list = list
        self.direction = direction
    }

    func seek(atMost key: Int64) throws -> Int64? {
        index = keys[index...].partitioningIndex { $0 <= key }
        if index < keys.count { return found(keys[index]) }
        if atEnd { return nil }
        let continues = returned != nil && returned == keys.last
        chunk = continues ? min(chunk * 4, Self.largest) : Self.smallest
        try fetch(atMost: key)
        return keys.first.map(found)
    }

    private func found(_ key: Int64) -> Int64 {
        returned = key
        return key
    }

    /// Reads the chunk with SQLite's C interface: GRDB's `fetchAll` decodes each row through generic code, which
    /// cost more than the B-tree walk on the lists an `AND` reads.
    private func fetch(atMost key: Int64) throws {
        try statement.setArguments([list, direction.id(key), chunk])
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        keys.removeAll(keepingCapacity: true)
        var code = sqlite3_step(handle)
        while code == SQLITE_ROW {
            keys.append(direction.key(sqlite3_column_int64(handle, 0)))
            code = sqlite3_step(handle)
        }
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), sql: statement.sql)
        }
        index = 0
        atEnd = keys.count < chunk
    }
}

/// Matches nothing: a term no post has.
final class NoPosts: PostCursor {
    func seek(atMost key: Int64) -> Int64? { nil }
}

/// Tweets matching every required part and no excluded one: the parts leapfrog each other down to a common key.
final class AllOf: PostCursor {
    private let required: [any PostCursor]
    private let excluded: [any PostCursor]

    init(required: [any PostCursor], excluded: [any PostCursor]) {
        self.required = required
        self.excluded = excluded
    }

    func seek(atMost key: Int64) throws -> Int64? {
        var candidate = key
        while true {
            guard let agreed = try agreement(atMost: candidate) else { return nil }
            if try !isExcluded(agreed) { return agreed }
            candidate = agreed - 1
        }
    }

    /// The highest key ≤ `key` that every required part has.
    private func agreement(atMost key: Int64) throws -> Int64? {
        var candidate = key
        var agreeing = 0
        while agreeing < required.count {
            for cursor in required {
                guard let found = try cursor.seek(atMost: candidate) else { return nil }
                agreeing = found == candidate ? agreeing + 1 : 1
                candidate = found
                if agreeing == required.count { break }
            }
        }
        return candidate
    }

    private func isExcluded(_ key: Int64) throws -> Bool {
        try excluded.contains { try $0.seek(atMost: key) == key }
    }
}

/// Tweets matching any of the parts: the highest key any of them has.
final class AnyOf: PostCursor {
    private let parts: [any PostCursor]

    init(_ parts: [any PostCursor]) {
        self.parts = parts
    }

    func seek(atMost key: Int64) throws -> Int64? {
        try parts.compactMap { try $0.seek(atMost: key) }.max()
    }
}

extension RandomAccessCollection {
    /// The first index where `belongs` holds, for a collection where it holds from some point on.
    func partitioningIndex(where belongs: (Element) throws -> Bool) rethrows -> Index {
        var low = startIndex
        var count = distance(from: low, to: endIndex)
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if try belongs(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
