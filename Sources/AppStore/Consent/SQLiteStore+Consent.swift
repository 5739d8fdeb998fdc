import GRDB

extension SQLiteStore: ConsentStore {
    func consentRules() async throws -> ConsentRules {
        try await writer.read { db in
            ConsentRuleSchema.rules(
                try Row.fetchAll(db, sql: "SELECT name, since FROM consentRuleOff").map { ($0["name"], $0["since"]) })
        }
    }

    func setConsentRule(_ rule: ConsentRule, on: Bool, at time: Int64) async throws -> Bool {
        try await writer.write { db in
            if on {
                try db.execute(sql: "DELETE FROM consentRuleOff WHERE name = ?", arguments: [rule.rawValue])
            } else {
                try db.execute(
                    sql: "INSERT INTO consentRuleOff(name, since) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    arguments: [rule.rawValue, time])
            }
            return db.changesCount > 0
        }
    }
}
