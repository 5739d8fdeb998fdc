/// The CSV every export writes (RFC 4180): a field with a comma, a quote or a line break is quoted, its quotes
/// doubled; rows end with CRLF. A text cell that a spreadsheet would run as a formula (starting `=`, `+`, `-`, `@`, a
/// tab or a carriage return) is prefixed with `'`, which spreadsheets show as text — so `@nasa` reads `'@nasa`. A
/// number is written as it is: `-3` is a value, not a formula.
public enum CSV {
    public static func row(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// One cell, made safe and quoted as needed.
    public static func field(_ text: String) -> String {
        let safe = isFormula(text) ? "'" + text : text
        guard safe.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return safe }
        return "\"" + safe.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    private static let formulaStarts: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]

    private static func isFormula(_ text: String) -> Bool {
        guard let first = text.first, formulaStarts.contains(first) else { return false }
        return !isNumber(text)
    }

    /// `-3`, `+2.5`: a plain number, which a spreadsheet reads as a value.
    private static func isNumber(_ text: String) -> Bool {
        let digits = text.dropFirst(text.first == "-" || text.first == "+" ? 1 : 0)
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        return !digits.isEmpty && parts.count <= 2
            && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }
}
