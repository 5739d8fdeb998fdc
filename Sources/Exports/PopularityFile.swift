import AppStore

/// A popularity table as CSV: `mention,kind,count,previous,change,partners`, hashtags then users as the table orders
/// them; `previous` and `change` (new, rising, falling, steady) are empty for all time, `partners` are the three
/// mentions each is named with most, separated by spaces.
public enum PopularityFile {
    /// The table, each mention written as `naming` gives it (a pseudonymised dataset's users are pseudonyms).
    public static func csv(_ table: PopularityTable, naming: (String) -> String = { $0 }) -> String {
        let rows = table.sections.flatMap { section in
            section.rows.map { mention in
                let momentum = table.momentum(of: mention)
                return CSV.row([
                    naming(mention.mention), section.kind.singular, String(mention.count),
                    momentum.map { _ in String(table.previousCount(of: mention)) } ?? "", momentum?.name ?? "",
                    table.partners(of: mention).map(naming).joined(separator: " "),
                ])
            }
        }
        return CSV.row(["mention", "kind", "count", "previous", "change", "partners"]) + rows.joined()
    }

    /// A file name for a download: `popularity-swift-7d.csv`.
    public static func name(_ table: PopularityTable) -> String {
        "popularity-\(FileNames.slug(table.term))-\(table.window).csv"
    }
}

/// Parts of download file names.
enum FileNames {
    /// The letters and digits of a term, at most 40: `#swift OR @nasa` → `swiftORnasa`.
    static func slug(_ term: String) -> String {
        let kept = String(
            String.UnicodeScalarView(
                term.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }.prefix(40)))
        return kept.isEmpty ? "term" : kept
    }
}
