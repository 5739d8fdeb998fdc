import AppStore
import PostgresSupport
import Testing

/// `--database` and `SMASHTAG_DATABASE_URL`: the address as libpq spells it, and a sentence for anything else.
struct PostgresURLTests {
    @Test func anAddressNamesTheServerAndDatabaseButNeverThePassword() throws {
        let url = try PostgresURL("postgresql://smashtag:s%40cret@db.example.com:6543/popular")
        #expect(url.description == "PostgreSQL database “popular” at db.example.com:6543")
        #expect(!url.description.contains("cret"))
        #expect(try PostgresURL("postgres://me@127.0.0.1").description == "PostgreSQL database “me” at 127.0.0.1:5432")
    }

    @Test func anythingElseIsOneSentence() {
        #expect(throws: PostgresURLError.notPostgres) { try PostgresURL("mysql://me@host/db") }
        #expect(throws: PostgresURLError.notPostgres) { try PostgresURL("not a url") }
        #expect(throws: PostgresURLError.noUser) { try PostgresURL("postgresql://host/db") }
        #expect(throws: PostgresURLError.unknownSSLMode("verify")) {
            try PostgresURL("postgresql://me@host/db?sslmode=verify")
        }
    }
}
