import AppStore
import ArgumentParser
import Foundation
import Posts
import SmashtagApp
import Team

extension Role: ExpressibleByArgument {}

/// `smashtag user`: the people who may sign in, and their roles.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Add, list and remove the people who may sign in, and set their roles and passwords.",
        discussion: """
            While no one is added, Smashtag is its owner's alone, on this computer (serve refuses other addresses \
            unless --public). A viewer searches and reads every page; a researcher also tracks terms and downloads \
            pseudonymised datasets, CSV and GEXF; an admin also manages people and tokens, downloads identified \
            datasets, untracks anyone's terms and reads the audit trail. The first person added takes over the \
            owner's Recents.
            """,
        subcommands: [Add.self, List.self, Remove.self, SetRole.self, Password.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a person: prints a password to give them once, or reads one from standard input.")

        @Argument(help: "Their name: letters, digits and . _ - @.") var name: String
        @Option(help: "viewer, researcher or admin.") var role: Role = .viewer
        @OptionGroup var common: CommonOptions
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let (password, generated) = try NewPassword.read()
            let hash = try await CommandFailure.reporting { try await Passwords().hash(password) }
            let person = try await store.withStore(in: try DataDirectory(common.dataDirectory)) { database in
                try await CommandFailure.reporting {
                    let person = try await People(database: database).add(name, role: role, passwordHash: hash)
                    try await CommandLineAudit.record("add person", "\(person.name) as \(role.rawValue)", database)
                    return person
                }
            }
            print("Added \(TerminalText.line(person.name)) as \(person.role.rawValue).")
            if generated { print("Their password, shown once: \(password)") }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the people, with their roles.")

        @Option(help: "text or json.") var format: OutputFormat = .text
        @OptionGroup var common: CommonOptions
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let people = try await store.withStore(in: try DataDirectory(common.dataDirectory)) { database in
                try await CommandFailure.reporting { try await People(database: database).all() }
            }
            switch format {
            case .json: print(PublicJSON.text(people.map { ["name": $0.name, "role": $0.role.rawValue] }))
            case .text:
                if people.isEmpty { print("No one is added: this Smashtag is its owner's, on this computer.") }
                for person in people {
                    print(
                        "\(TerminalText.line(person.name))\t\(person.role.rawValue)\tadded \(Self.day(person.created))")
                }
            }
        }

        static func day(_ date: Date) -> String {
            String(date.ISO8601Format().prefix(10))
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a person: their sign-ins, tokens and Recents go with them; what they track stays tracked."
        )

        @Argument var name: String
        @OptionGroup var common: CommonOptions
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await store.withStore(in: try DataDirectory(common.dataDirectory)) { database in
                try await CommandFailure.reporting {
                    try await People(database: database).remove(name)
                    try await CommandLineAudit.record("remove person", name, database)
                }
            }
            print("Removed \(TerminalText.line(name)).")
        }
    }

    struct SetRole: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "role", abstract: "Change a person's role; it takes effect on their next request.")

        @Argument var name: String
        @Argument(help: "viewer, researcher or admin.") var role: Role
        @OptionGroup var common: CommonOptions
        @OptionGroup var store: StoreOptions

        func run() async throws {
            try await store.withStore(in: try DataDirectory(common.dataDirectory)) { database in
                try await CommandFailure.reporting {
                    try await People(database: database).setRole(role, of: name)
                    try await CommandLineAudit.record("set role", "\(name) to \(role.rawValue)", database)
                }
            }
            print("\(TerminalText.line(name)) is now \(role.rawValue).")
        }
    }

    struct Password: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Give a person a new password (printed once, or read from standard input); it ends their sign-ins.")

        @Argument var name: String
        @OptionGroup var common: CommonOptions
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let (password, generated) = try NewPassword.read()
            let hash = try await CommandFailure.reporting { try await Passwords().hash(password) }
            try await store.withStore(in: try DataDirectory(common.dataDirectory)) { database in
                try await CommandFailure.reporting {
                    try await People(database: database).setPasswordHash(hash, of: name)
                    try await CommandLineAudit.record("set password", name, database)
                }
            }
            print("\(TerminalText.line(name)) has a new password; their sign-ins have ended.")
            if generated { print("Their password, shown once: \(password)") }
        }
    }
}

/// `smashtag token`: tokens for scripts and the JSON API (`Authorization: Bearer …`).
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Create, list and revoke the tokens scripts use for the JSON API.",
        subcommands: [Create.self, List.self, Revoke.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a token for a person, with a role at most theirs: printed once, never kept.")

        @Argument(help: "Whose token it is.") var name: String
        @Option(help: "viewer, researcher or admin (at most the person's).") var role: Role = .viewer
        @Option(help: "How long it lasts: 30d, 12h (default: until revoked).") var expires: String?
        @OptionGroup var common: CommonOptions
        @OptionGroup var store: StoreOptions

        func validate() throws {
            if let expires { do { _ = try Period.seconds(expires) } catch { throw ValidationError(error.description) } }
        }

        func run() async throws {
            let (token, prefix) = Secrets.token()
            let ends = try expires.map { Date().addingTimeInterval(Double(try Period.seconds($0))) }
            try await store.withStore(in: try DataDirectory(common.dataDirectory)) { database in
                try await CommandFailure.reporting {
                    try await People(database: database).createToken(
                        prefix: prefix, hash: Secrets.hash(token), for: name, role: role, expires: ends)
                    try await CommandLineAudit.record(
                        "create token", "\(prefix) for \(name) as \(role.rawValue)", database)
                }
            }
            print("Token \(prefix) for \(TerminalText.line(name)) as \(role.rawValue), shown once:")
            print(token)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the tokens: never the tokens themselves.")

        @Option(help: "text or json.") var format: OutputFormat = .text
        @OptionGroup var common: CommonOptions
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let tokens = try await store.withStore(in: try DataDirectory(common.dataDirectory)) { database in
                try await CommandFailure.reporting { try await People(database: database).tokens() }
            }
            switch format {
            case .json: print(PublicJSON.text(tokens))
            case .text:
                if tokens.isEmpty { print("No tokens.") }
                for token in tokens {
                    let expires = token.expires.map { "expires " + UserCommand.List.day($0) } ?? "never expires"
                    let used = token.lastUsed.map { "last used " + $0.ISO8601Format() } ?? "never used"
                    print(
                        [token.prefix, TerminalText.line(token.person), token.role.rawValue, expires, used]
                            .joined(separator: "\t")
                    )
                }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a token: it stops working at once.")

        @Argument(help: "The token's first characters, as `token list` shows them.") var prefix: String
        @OptionGroup var common: CommonOptions
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let revoked = try await store.withStore(in: try DataDirectory(common.dataDirectory)) { database in
                try await CommandFailure.reporting {
                    let revoked = try await People(database: database).revokeToken(prefix: prefix)
                    if revoked { try await CommandLineAudit.record("revoke token", prefix, database) }
                    return revoked
                }
            }
            guard revoked else {
                throw CommandFailure("No token starts “\(prefix)”: `smashtag token list` shows them.")
            }
            print("Revoked \(prefix).")
        }
    }
}

/// `smashtag audit`: who wrote what, when and from where.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Show the audit trail: sign-ins, tracking, exports, people and token changes, deletions.")

    @Option(help: "How far back: 24h, 7d, 90d.") var since = "7d"
    @Option(help: "text or json.") var format: OutputFormat = .text
    @OptionGroup var common: CommonOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        do { _ = try Period.seconds(since) } catch { throw ValidationError(error.description) }
    }

    func run() async throws {
        let start = Date().addingTimeInterval(-Double(try Period.seconds(since)))
        let entries = try await store.withStore(in: try DataDirectory(common.dataDirectory)) { database in
            try await CommandFailure.reporting { try await AuditTrail(database: database).entries(since: start) }
        }
        switch format {
        case .json: print(PublicJSON.text(entries))
        case .text:
            if entries.isEmpty { print("Nothing was written since \(start.ISO8601Format()).") }
            for entry in entries {
                let line = [entry.at.ISO8601Format(), entry.actor, entry.action, entry.detail, "from " + entry.address]
                print(TerminalText.line(line.filter { !$0.isEmpty }.joined(separator: "  ")))
            }
        }
    }
}

/// The command line's writes in the audit trail: whoever runs it on this computer.
enum CommandLineAudit {
    static func record(_ action: String, _ detail: String, _ database: AppDatabase) async throws {
        let user = ProcessInfo.processInfo.environment["USER"].map { " (\($0))" } ?? ""
        try await AuditTrail(database: database).record(
            AuditEntry(actor: "command line" + user, action: action, detail: detail, address: "this computer"))
    }
}

/// A new password: the line standard input gives when it is not a terminal (a script's, a password manager's), else
/// one made up to be shown once.
enum NewPassword {
    static func read() throws -> (password: String, generated: Bool) {
        guard isatty(0) == 0, let line = readLine(strippingNewline: true), !line.isEmpty else {
            return (Passwords.generated(), true)
        }
        do { try Passwords.check(line) } catch let error as PasswordError { throw CommandFailure(error.description) }
        return (line, false)
    }
}
