/// Text made safe for XML content and attribute values (the demo's pictures, GEXF): the five special characters
/// escaped, and characters XML 1.0 cannot hold at all (controls other than tab and line breaks, U+FFFE, U+FFFF) left
/// out, so hostile text stays text and the file stays well-formed.
public enum XMLText {
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars where isAllowed(scalar) {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x20 ? scalar.value != 0xFFFE && scalar.value != 0xFFFF : ["\t", "\n", "\r"].contains(scalar)
    }
}
