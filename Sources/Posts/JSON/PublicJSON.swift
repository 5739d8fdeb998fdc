#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The JSON Smashtag gives out — the commands' `--format json`, the web app's JSON twins, the benchmarks' results:
/// keys sorted, times as ISO-8601, slashes as they are. One set-up, so every face writes the same bytes for the same
/// value.
public enum PublicJSON {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()

    public static func data(_ value: some Encodable) throws -> Data {
        try encoder.encode(value)
    }

    /// Compact JSON text. For the app's own model types, whose encoding cannot fail: a failure would be a bug, and
    /// writes `null` rather than stopping a page.
    public static func text(_ value: some Encodable) -> String {
        (try? data(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}
