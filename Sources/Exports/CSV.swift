/// The CSV every export writes (RFC 4180): a field with a comma, a quote or a line break is quoted, its quotes
/// doubled; rows end with CRLF. A text cell that a spreadsheet would run as a formula (starting `=`, `+`, `-`, `@`, a
/// tab or a carriage return) is prefixed with `'`, which spreadsheets show as text — so `@nasa` reads `'@nasa`. A
/// number is written as it is: `-3` is a value, not a formula. Cells are checked byte by byte: a dataset writes
/// millions of them.
public enum CSV {
    public static func row(_ fields: [String]) -> String {
        var row = ""
        row.reserveCapacity(fields.reduce(2) { $0 + $1.utf8.count + 1 })
        for (index, text) in fields.enumerated() {
            if index > 0 { row.append(",") }
            append(text, to: &row)
        }
        row.append("\r\n")
        return row
    }

    /// One cell, made safe and quoted as needed.
    public static func field(_ text: String) -> String {
        var cell = ""
        append(text, to: &cell)
        return cell
    }

    private static func append(_ text: String, to row: inout String) {
        let safe = isFormula(text) ? "'" + text : text
        guard needsQuotes(safe.utf8) else { return row.append(safe) }
        row.append("\"")
        row.append(safe.contains("\"") ? safe.replacing("\"", with: "\"\"") : safe)
        row.append("\"")
    }

    /// A comma, a quote, or any line break (CR, LF, VT, FF, NEL, U+2028, U+2029: what counts as one for a reader).
    private static func needsQuotes(_ utf8: String.UTF8View) -> Bool {
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in utf8 {
            switch byte {
            case 0x2C, 0x22, 0x0A, 0x0B, 0x0C, 0x0D: return true
            case 0x85 where previous.1 == 0xC2: return true
            case 0xA8 where previous == (0xE2, 0x80), 0xA9 where previous == (0xE2, 0x80): return true
            default: previous = (previous.1, byte)
            }
        }
        return false
    }

    private static let formulaStarts: Set<UInt8> = [0x3D, 0x2B, 0x2D, 0x40, 0x09, 0x0D]  // = + - @ tab CR

    private static func isFormula(_ text: String) -> Bool {
        guard let first = text.utf8.first, formulaStarts.contains(first) else { return false }
        return !isNumber(text)
    }

    /// `-3`, `+2.5`: a plain number, which a spreadsheet reads as a value.
    private static func isNumber(_ text: String) -> Bool {
        let digits = text.utf8.dropFirst(text.utf8.first == 0x2D || text.utf8.first == 0x2B ? 1 : 0)
        let parts = digits.split(separator: 0x2E, omittingEmptySubsequences: false)
        return !digits.isEmpty && parts.count <= 2
            && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0 &- 0x30 < 10 } }
    }
}
