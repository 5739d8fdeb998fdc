import PostgresNIO
import PostgresSupport

extension PostgresStore: ConsentStore {
    func consentRules() async throws -> ConsentRules {
        try await read { connection in
            ConsentRuleSchema.rules(
                try await connection.rows("SELECT name, since FROM consent_rule_off").map {
                    (try $0["name"].decode(String.self), try $0["since"].decode(Int64.self))
                })
        }
    }

    func setConsentRule(_ rule: ConsentRule, on: Bool, at time: Int64) async throws -> Bool {
        try await transaction { connection in
            let changed =
                on
                ? try await connection.rows("DELETE FROM consent_rule_off WHERE name = \(rule.rawValue) RETURNING name")
                : try await connection.rows(
                    """
                    INSERT INTO consent_rule_off (name, since) VALUES (\(rule.rawValue), \(time))
                    ON CONFLICT DO NOTHING RETURNING name
                    """)
            return !changed.isEmpty
        }
    }
}
