import GRDB
import GRDBSQLite

/// An insert the import runs millions of times, bound and stepped through SQLite's C interface. GRDB's `execute`
/// wraps each value in a `DatabaseValue`, checks the arguments against the statement and looks the statement up by
/// its SQL every time: at the dozen statements a post the import once ran, that was a quarter of the writer's time.
/// GRDB still prepares the statement (and finalizes it), so its view of the connection stays whole.
package final class RawStatement {
    private let statement: Statement
    private var handle: OpaquePointer { statement.sqliteStatement }
    private let db: Database

    package init(_ db: Database, _ sql: String) throws {
        self.db = db
        statement = try db.makeStatement(sql: sql)
    }

    /// Binds `values` to the parameters in order, runs the statement to its end and returns how many rows it changed.
    @discardableResult
    package func run(_ values: RawValue...) throws -> Int {
        try run(values)
    }

    @discardableResult
    package func run(_ values: [RawValue]) throws -> Int {
        defer { sqlite3_reset(handle) }
        for (index, value) in values.enumerated() { try bind(value, at: Int32(index + 1)) }
        var code = sqlite3_step(handle)
        while code == SQLITE_ROW { code = sqlite3_step(handle) }
        guard code == SQLITE_DONE else { throw failure(code) }
        return Int(sqlite3_changes(db.sqliteConnection))
    }

    private func bind(_ value: RawValue, at index: Int32) throws {
        let code =
            switch value {
            case .null: sqlite3_bind_null(handle, index)
            case .integer(let number): sqlite3_bind_int64(handle, index, number)
            case .real(let number): sqlite3_bind_double(handle, index, number)
            case .text(let text):
                // A native string's bytes end in a NUL already; SQLITE_TRANSIENT: SQLite copies them.
                text.withCString { bytes in
                    sqlite3_bind_text(
                        handle, index, bytes, Int32(text.utf8.count),
                        unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                }
            }
        guard code == SQLITE_OK else { throw failure(code) }
    }

    private func failure(_ code: Int32) -> DatabaseError {
        statement.failure(code)
    }
}

extension Statement {
    /// The first column of every row, its arguments already set, stepped through SQLite's C interface (GRDB's
    /// `fetchAll` decodes each row through generic code).
    func integers(expecting count: Int) throws -> [Int64] {
        let handle = sqliteStatement
        defer { sqlite3_reset(handle) }
        var values: [Int64] = []
        values.reserveCapacity(count)
        var code = sqlite3_step(handle)
        while code == SQLITE_ROW {
            values.append(sqlite3_column_int64(handle, 0))
            code = sqlite3_step(handle)
        }
        guard code == SQLITE_DONE else { throw failure(code) }
        return values
    }

    /// SQLite's error for `code`, with its message.
    fileprivate func failure(_ code: Int32) -> DatabaseError {
        DatabaseError(
            resultCode: ResultCode(rawValue: code),
            message: String(cString: sqlite3_errmsg(sqlite3_db_handle(sqliteStatement))),
            sql: sql)
    }
}

/// A value to bind.
package enum RawValue: Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    package init(_ number: Int) { self = .integer(Int64(number)) }
    package init(_ flag: Bool) { self = .integer(flag ? 1 : 0) }
    package init(_ text: String?) { self = text.map(RawValue.text) ?? .null }
    package init(_ number: Int64?) { self = number.map(RawValue.integer) ?? .null }
    package init(_ number: Double?) { self = number.map(RawValue.real) ?? .null }
}
