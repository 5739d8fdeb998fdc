import AppStore
import ArgumentParser
import SmashtagApp
import WireJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `smashtag consent [off|on RULE]`: the rules that keep to what people chose about their own posts, each on unless
/// turned off; with no arguments, each rule and whether it is on.
struct ConsentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consent",
        abstract: "Show the consent rules, or turn one off or on again.",
        discussion: """
            Every rule is on by default. Turning one off (as an ethics approval or a platform agreement allows) is \
            recorded in the audit trail, and every dataset made while it is off says so in its datapackage.json.
            """
    )

    /// Which way a rule is turned.
    enum Switch: String, ExpressibleByArgument, CaseIterable {
        case off, on
    }

    @Argument(help: "off or on; leave out to show the rules.")
    var change: Switch?

    @Argument(help: "The rule: \(ConsentRule.allCases.map(\.rawValue).joined(separator: " or ")).")
    var rule: ConsentRule?

    @OptionGroup var common: CommonOptions
    @OptionGroup var store: StoreOptions

    func validate() throws {
        if let change, rule == nil {
            let rules = ConsentRule.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("Name the rule to turn \(change.rawValue): \(rules).")
        }
        if change == nil, rule != nil { throw ValidationError("Say off or on before the rule.") }
    }

    func run() async throws {
        let directory = try DataDirectory(common.dataDirectory)
        guard let change, let rule else {
            let rules = try await store.withStore(in: directory) { database in
                try await CommandFailure.reporting { try await database.consentRules() }
            }
            for rule in ConsentRule.allCases {
                let state = rules.off[rule].map { "off since \(WireDate.iso8601WholeSeconds($0))" } ?? "on"
                print("\(rule.rawValue): \(state). \(rule.sentence)")
            }
            return
        }
        let changed = try await store.withStore(in: directory) { database in
            try await CommandFailure.reporting {
                let changed = try await database.setConsentRule(rule, on: change == .on)
                if changed { try await CommandLineAudit.record("consent", "\(rule.rawValue) \(change)", database) }
                return changed
            }
        }
        guard changed else { return print("\(rule.rawValue) was already \(change): nothing changed.") }
        print(
            change == .on
                ? "\(rule.rawValue) is on again: \(rule.sentence)"
                : """
                \(rule.rawValue) is off, recorded in the audit trail; every dataset made from now says so. \
                `smashtag consent on \(rule.rawValue)` turns it on again.
                """)
    }
}

extension ConsentRule: ExpressibleByArgument {}
